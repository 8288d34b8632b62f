import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';

export function createConvertImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'convert_image',
    title: 'Convert Image',
    description:
      'Re-encode an image as JPEG, PNG, WebP, AVIF, GIF or TIFF, with quality (1-100) for the lossy ones and ' +
      'lossless for WebP/AVIF. Animations stay animated as GIF or WebP. AVIF and TIFF results are shown as WebP and ' +
      'PNG because clients do not display them.',
    fields: {},
    requireFormat: true,
    operations: () => [],
  });
}
