import { decodeHeic } from './heic-decoder.ts';
import { type ProbedImage, probeImage } from './image-probe.ts';
import type { ImageLimits } from './image-server-options.ts';
import type { LoadedImage } from './image-source.ts';

/** An input sharp can decode, and what its header says. */
export interface DecodableInput {
  bytes: Buffer;
  probe: ProbedImage;
}

/**
 * Checks the header against the caps, then gives the bytes sharp decodes:
 * the input's own, or for HEIC the pixels libheif-js decoded, probed again
 * as decoded (rotation applied) and still named HEIC.
 */
export async function decodableInput(input: LoadedImage, limits: ImageLimits): Promise<DecodableInput> {
  const probe = await probeImage(input.bytes, input.label, limits);
  if (probe.format !== 'heic') return { bytes: input.bytes, probe };
  const bytes = await decodeHeic(input.bytes, input.label, limits);
  const decoded = await probeImage(bytes, input.label, limits);
  return { bytes, probe: { ...decoded, format: 'heic' } };
}
