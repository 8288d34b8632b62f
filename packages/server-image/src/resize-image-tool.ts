import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { resizeFields, resizeOperation } from './operations/resize-operation.ts';

export function createResizeImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'resize_image',
    title: 'Resize Image',
    description:
      'Resize an image to a width, a height, or both (pixels). With both, fit says how: inside (default) keeps the ' +
      'aspect ratio within the box, cover fills it and cuts the rest, contain pads, fill stretches. Images are not ' +
      `enlarged unless allow_enlargement.`,
    fields: resizeFields,
    operations: (args) => [resizeOperation(args)],
  });
}
