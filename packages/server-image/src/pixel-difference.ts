import { ToolError } from '@toolshed/mcp-core';
import type { CallDeadline } from './call-deadline.ts';
import { type DecodableInput, decodableInput } from './decoded-input.ts';
import { type EncodedImage, encodedFrom, fitPreview } from './fit-preview.ts';
import { decodeOptions } from './image-probe.ts';
import type { ImageLimits } from './image-server-options.ts';
import type { LoadedImage } from './image-source.ts';
import { loadSharp } from './load-sharp.ts';
import { renderError } from './render-image.ts';

type Pixelmatch = typeof import('pixelmatch').default;

let loading: Promise<Pixelmatch> | undefined;

function loadPixelmatch(): Promise<Pixelmatch> {
  loading ??= import('pixelmatch').then((loaded) => loaded.default);
  return loading;
}

export interface PixelDifference {
  a: { format: string; width: number; height: number };
  b: { format: string; width: number; height: number };
  width: number;
  height: number;
  mismatched: number;
  bResized: boolean;
  /** Where they differ, full size, as PNG. */
  diff: EncodedImage;
  /** The diff as the model sees it. */
  preview: EncodedImage;
}

// Shapes that differ by more than this are different pictures, not one picture at another size.
const aspectTolerance = 0.01;

/**
 * Decodes both images within the caps (each header checked first), scales b
 * to a's size when only their size differs, and counts the pixels pixelmatch
 * finds different. Images of other shapes are refused: stretching one would
 * make every pixel differ and say nothing.
 */
export async function pixelDifference(
  a: LoadedImage,
  b: LoadedImage,
  limits: ImageLimits,
  deadline: CallDeadline,
): Promise<PixelDifference> {
  const decodedA = await decodableInput({ ...a, label: 'a' }, limits);
  const decodedB = await decodableInput({ ...b, label: 'b' }, limits);
  const [probeA, probeB] = [decodedA.probe, decodedB.probe];
  const { width, height } = probeA;
  const bResized = probeB.width !== width || probeB.height !== height;
  if (bResized && Math.abs(probeB.width / probeB.height / (width / height) - 1) > aspectTolerance) {
    throw new ToolError(
      `a is ${width}×${height} and b is ${probeB.width}×${probeB.height}: different shapes cannot be compared pixel by pixel. Crop one to the other's shape with process_image first; images of the same shape at other sizes are scaled to a's size.`,
    );
  }
  const sharp = await loadSharp();
  const rgba = ({ bytes, probe }: DecodableInput) => {
    let pipeline = sharp(bytes, { ...decodeOptions(probe, limits), pages: 1 }).timeout({
      seconds: deadline.secondsLeft(),
    });
    if (bResized && probe === probeB) pipeline = pipeline.resize({ width, height, fit: 'fill' });
    return pipeline
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer()
      .catch((error: unknown) => {
        throw renderError(error, probe === probeA ? 'a' : 'b');
      });
  };
  const [pixelsA, pixelsB] = await Promise.all([rgba(decodedA), rgba(decodedB)]);
  deadline.signal.throwIfAborted();
  const pixelmatch = await loadPixelmatch();
  const output = Buffer.alloc(width * height * 4);
  const mismatched = pixelmatch(pixelsA, pixelsB, output, width, height, { threshold: 0.1 });
  const raw = { raw: { width, height, channels: 4 as const } };
  const { data, info } = await sharp(output, raw).png().toBuffer({ resolveWithObject: true });
  const diff = encodedFrom(data, info, 'png');
  const preview = await fitPreview(() => sharp(output, raw), 'png', limits, deadline.secondsLeft);
  return {
    a: { format: probeA.format, width, height },
    b: { format: probeB.format, width: probeB.width, height: probeB.height },
    width,
    height,
    mismatched,
    bResized,
    diff,
    preview,
  };
}
