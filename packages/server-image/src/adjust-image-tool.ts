import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { adjustFields, adjustOperation } from './operations/adjust-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';

export function createAdjustImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'adjust_image',
    title: 'Adjust Image',
    description:
      'Change how an image looks: grayscale, blur, sharpen, normalise (stretch contrast), brightness, saturation, ' +
      `hue and negate, any together. ${deliveryNote(context)}`,
    input: z.object({ ...imageSourceFields, ...adjustFields, ...outputFields, keep_metadata: keepMetadataField }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, { source, output, operations: () => [adjustOperation(args)] });
    },
  });
}
