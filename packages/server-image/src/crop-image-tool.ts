import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { cropFields, cropOperation } from './operations/crop-operation.ts';

export function createCropImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'crop_image',
    title: 'Crop Image',
    description:
      'Cut a width×height region out of an image. Give left and top (pixels from the top-left corner, after EXIF ' +
      'orientation) for an exact region; leave them out to let strategy pick the region: attention keeps the most ' +
      `salient part, entropy the most detailed, centre the middle. Use image_info for the size first.`,
    fields: cropFields,
    operations: (args) => [cropOperation(args)],
  });
}
