import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { watermarkFields, watermarkOperation } from './operations/watermark-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';
import { loadWatermarkMark, overlayField } from './watermark-mark.ts';

export function createWatermarkImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'watermark_image',
    title: 'Watermark Image',
    description:
      'Stamp text or an overlay image (a logo) onto an image, at a compass position or tiled across it, sized as a ' +
      `fraction of the image's width and with an opacity. ${deliveryNote(context)}`,
    input: z.object({
      ...imageSourceFields,
      ...watermarkFields,
      overlay: overlayField,
      ...outputFields,
      keep_metadata: keepMetadataField,
    }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, {
        source,
        output,
        operations: async (signal) => [watermarkOperation(args, await loadWatermarkMark(args, context, signal))],
      });
    },
  });
}
