import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { resizeFields, resizeOperation } from './operations/resize-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';

export function createResizeImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'resize_image',
    title: 'Resize Image',
    description:
      'Resize an image to a width, a height, or both (pixels). With both, fit says how: inside (default) keeps the ' +
      'aspect ratio within the box, cover fills it and cuts the rest, contain pads, fill stretches. Images are not ' +
      `enlarged unless allow_enlargement. ${deliveryNote(context)}`,
    input: z.object({ ...imageSourceFields, ...resizeFields, ...outputFields, keep_metadata: keepMetadataField }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, { source, output, operations: () => [resizeOperation(args)] });
    },
  });
}
