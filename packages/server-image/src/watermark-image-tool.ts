import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { watermarkFields, watermarkOperation } from './operations/watermark-operation.ts';
import { loadWatermarkMark, overlayField } from './watermark-mark.ts';

export function createWatermarkImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'watermark_image',
    title: 'Watermark Image',
    description:
      'Stamp text or an overlay image (a logo) onto an image, at a compass position or tiled across it, sized as a ' +
      "fraction of the image's width and with an opacity.",
    fields: { ...watermarkFields, overlay: overlayField },
    operations: async (args, signal) => [watermarkOperation(args, await loadWatermarkMark(args, context, signal))],
  });
}
