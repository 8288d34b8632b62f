import type { ToolAnnotations } from '@toolshed/mcp-core';
import type { ImageContext } from './image-context.ts';

/**
 * Transforms only add files (to the output directory, when there is one) and
 * never replace one; the same call gives the same result; they reach the
 * network only when the operator allows URL input.
 */
export function transformAnnotations(context: ImageContext): ToolAnnotations {
  return {
    readOnlyHint: context.outputs === undefined,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: context.fetcher !== undefined,
  };
}

/** The sentence every transform's description ends with. */
export function deliveryNote(context: ImageContext): string {
  const edge = context.limits.previewMaxEdge;
  const file =
    context.outputs === undefined
      ? 'The result comes back as an image'
      : 'The full-size result is written to the output directory (returned as a resource link) and comes back as an image';
  return `${file}, scaled to fit ${edge} px on the long edge and ${context.limits.previewMaxBytes} bytes. Metadata (EXIF, GPS) is removed.`;
}
