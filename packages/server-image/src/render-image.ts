import { ToolError } from '@toolshed/mcp-core';
import type { OutputInfo, Sharp } from 'sharp';
import type { CallDeadline } from './call-deadline.ts';
import { type EncodedImage, encodedFrom, fitPreview, fitsPreview } from './fit-preview.ts';
import { decodeOptions, type ProbedImage } from './image-probe.ts';
import type { ImageLimits } from './image-server-options.ts';
import { loadSharp, type SharpFunction } from './load-sharp.ts';
import { type MetadataArguments, withMetadata } from './metadata-fields.ts';
import type { Dimensions, Operation } from './operations/operation.ts';
import { animatedFormats, type EncodeOptions, encodeAs, type OutputFormat, previewFormatFor } from './output-format.ts';

export interface RenderRequest {
  bytes: Buffer;
  label: string;
  probe: ProbedImage;
  operations: readonly Operation[];
  format: OutputFormat;
  encode: EncodeOptions;
  /** Keep EXIF, XMP and ICC from the input (single-pass renders only). */
  keepMetadata: boolean;
  /** Fields written into the result, over the kept metadata or alone. */
  metadata?: MetadataArguments | undefined;
  /** Encode the full-size result even when it is larger than the preview: it will be written to a file. */
  keepFull: boolean;
  progress?: ((done: number, total: number, message: string) => void) | undefined;
}

export interface RenderOutcome {
  /** The whole result, encoded; undefined when nothing keeps it and it did not fit the preview. */
  full: EncodedImage | undefined;
  /** What the model sees. */
  preview: EncodedImage;
  /** The result's size, whether or not it was encoded in full. */
  result: Dimensions & { format: OutputFormat };
  notes: string[];
}

type RawImage = { data: Buffer; info: OutputInfo };

function fromRaw(sharp: SharpFunction, { data, info }: RawImage, frames: number, seconds: number): Sharp {
  const pageHeight = info.height / frames;
  return sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels, ...(frames > 1 ? { pageHeight } : {}) },
  }).timeout({ seconds });
}

function sizeOf(info: OutputInfo, frames: number): Dimensions {
  return { width: info.width, height: info.height / frames, frames };
}

/** sharp's message, said for a model: which input, and that it is damaged when the decoder says so. */
export function renderError(error: unknown, label: string): unknown {
  if (error instanceof ToolError || !(error instanceof Error)) return error;
  const detail = error.message.split('\n')[0] ?? '';
  if (/timeout/i.test(detail)) {
    return new ToolError(`Processing ${label} ran out of time; try a smaller image or fewer operations.`);
  }
  if (/premature end|truncat|corrupt|read error|invalid|bad|unable to|VipsJpeg|vipspng|gifload|webp/i.test(detail)) {
    return new ToolError(`${label} could not be decoded: it is truncated or corrupt (${detail}).`);
  }
  return new ToolError(`${label} could not be processed: ${detail}.`);
}

/**
 * Decodes the input once and runs the operations in order. Each step after
 * the first starts from the previous one's pixels in memory, because sharp
 * orders the steps of one pipeline its own way; the input is never decoded
 * twice. Sizes are planned before any pixel is made, so a step that would
 * exceed the caps is refused first. The result is encoded once in full when
 * it fits the preview budget or is to be kept; otherwise only the preview is
 * made, from the pixels.
 */
export async function renderImage(
  request: RenderRequest,
  limits: ImageLimits,
  deadline: CallDeadline,
): Promise<RenderOutcome> {
  const { probe, operations, format } = request;
  const notes: string[] = [];
  const stillOnly = operations.find((operation) => !operation.animated);
  const keepFrames = probe.frames > 1 && animatedFormats.has(format) && stillOnly === undefined;
  if (probe.frames > 1 && !keepFrames) {
    notes.push(
      `Only the first of ${probe.frames} frames was used: ${
        stillOnly === undefined ? `${format} cannot hold an animation` : `${stillOnly.name} works on still images`
      }.`,
    );
  }
  const frames = keepFrames ? probe.frames : 1;
  let planned: Dimensions = { width: probe.width, height: probe.height, frames };
  for (const operation of operations) planned = operation.plan(planned, limits);

  const total = operations.length + 1;
  const sharp = await loadSharp();
  try {
    let current: Dimensions = { width: probe.width, height: probe.height, frames };
    let image = sharp(request.bytes, { ...decodeOptions(probe, limits), pages: keepFrames ? -1 : 1 }).timeout({
      seconds: deadline.secondsLeft(),
    });
    for (const [index, operation] of operations.entries()) {
      if (index > 0) {
        const raw = await image.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
        deadline.signal.throwIfAborted();
        current = sizeOf(raw.info, frames);
        image = fromRaw(sharp, raw, frames, deadline.secondsLeft());
      }
      image = await operation.apply(image, current, sharp);
      request.progress?.(index + 1, total, operation.name);
    }
    if (request.metadata !== undefined) image = withMetadata(image, request.metadata, request.keepMetadata);
    else if (request.keepMetadata) image = image.keepMetadata();

    const fitsEdge = Math.max(planned.width, planned.height) <= limits.previewMaxEdge;
    let full: EncodedImage | undefined;
    let preview: EncodedImage;
    if (request.keepFull || (fitsEdge && previewFormatFor(format) === format)) {
      const { data, info } = await encodeAs(image, format, request.encode).toBuffer({ resolveWithObject: true });
      full = encodedFrom(data, info, format);
      deadline.signal.throwIfAborted();
      preview = fitsPreview(full, limits)
        ? full
        : await fitPreview(
            () => sharp(data, { pages: keepFrames ? -1 : 1, limitInputPixels: limits.maxInputPixels }),
            format,
            limits,
            deadline.secondsLeft,
          );
    } else {
      const raw = await image.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      deadline.signal.throwIfAborted();
      preview = await fitPreview(
        () => fromRaw(sharp, raw, frames, deadline.secondsLeft()),
        format,
        limits,
        deadline.secondsLeft,
      );
      planned = sizeOf(raw.info, frames);
    }
    request.progress?.(total, total, 'encoded');
    const result =
      full === undefined
        ? { ...planned, format }
        : { width: full.width, height: full.height, frames: full.frames, format };
    return { full, preview, result, notes };
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.signal.reason;
    throw renderError(error, request.label);
  }
}
