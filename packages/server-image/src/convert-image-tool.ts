import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { outputFields, outputFormats } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';

export function createConvertImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'convert_image',
    title: 'Convert Image',
    description:
      'Re-encode an image as JPEG, PNG, WebP, AVIF, GIF or TIFF, with quality (1-100) for the lossy ones and ' +
      'lossless for WebP/AVIF. Animations stay animated as GIF or WebP. AVIF and TIFF results are shown as WebP and ' +
      `PNG because clients do not display them. ${deliveryNote(context)}`,
    input: z.object({
      ...imageSourceFields,
      ...outputFields,
      format: z.enum(outputFormats).describe('The format to convert to'),
      keep_metadata: keepMetadataField,
    }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, { source, output, operations: () => [] });
    },
  });
}
