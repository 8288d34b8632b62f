import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { cropFields, cropOperation } from './operations/crop-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';

export function createCropImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'crop_image',
    title: 'Crop Image',
    description:
      'Cut a width×height region out of an image. Give left and top (pixels from the top-left corner, after EXIF ' +
      'orientation) for an exact region; leave them out to let strategy pick the region: attention keeps the most ' +
      `salient part, entropy the most detailed, centre the middle. Use image_info for the size first. ${deliveryNote(context)}`,
    input: z.object({ ...imageSourceFields, ...cropFields, ...outputFields, keep_metadata: keepMetadataField }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, { source, output, operations: () => [cropOperation(args)] });
    },
  });
}
