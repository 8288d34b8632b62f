import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { rotateFields, rotateOperation } from './operations/rotate-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';

export function createRotateImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'rotate_image',
    title: 'Rotate or Flip Image',
    description:
      'Rotate an image clockwise by angle degrees and/or mirror it: flip (top to bottom) or flop (left to right). ' +
      'EXIF orientation is already applied to every input, so a sideways phone photo does not need this. ' +
      deliveryNote(context),
    input: z.object({ ...imageSourceFields, ...rotateFields, ...outputFields, keep_metadata: keepMetadataField }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, { source, output, operations: () => [rotateOperation(args)] });
    },
  });
}
