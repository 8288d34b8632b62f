import { ToolError } from '@toolshed/mcp-core';
import type { Sharp } from 'sharp';
import type { ImageLimits } from '../image-server-options.ts';
import type { SharpFunction } from '../load-sharp.ts';

/** An image's size between steps: one frame's width and height, and how many frames. */
export interface Dimensions {
  width: number;
  height: number;
  frames: number;
}

/** One step of a pipeline, its arguments already validated. */
export interface Operation {
  /** What the result lists: `resize`, `crop`… */
  readonly name: string;
  /** Whether the step works frame by frame on an animation; when not, only the first frame is used. */
  readonly animated: boolean;
  /** The size the step will produce from `input`, or a ToolError when it cannot or may not run. */
  plan(input: Dimensions, limits: ImageLimits): Dimensions;
  /** Adds the step to a pipeline reading an image of `input`'s size; `sharp` makes any other image it needs. */
  apply(image: Sharp, input: Dimensions, sharp: SharpFunction): Sharp | Promise<Sharp>;
}

/** Refuses a result larger than the caps before any pixel of it is made. */
export function checkOutputSize(name: string, size: Dimensions, limits: ImageLimits): Dimensions {
  const { width, height, frames } = size;
  if (width < 1 || height < 1) throw new ToolError(`${name} would leave no pixels (${width}×${height}).`);
  if (width > limits.maxOutputEdge || height > limits.maxOutputEdge) {
    throw new ToolError(
      `${name} would make a ${width}×${height} image; width and height are limited to ${limits.maxOutputEdge}.`,
    );
  }
  if (width * height * frames > limits.maxInputPixels) {
    throw new ToolError(
      `${name} would make ${width * height * frames} pixels; results are limited to ${limits.maxInputPixels}.`,
    );
  }
  return size;
}

/** Colours as CSS takes them: names, #rgb, #rrggbb, #rrggbbaa, rgb()/rgba(). */
export const colourPattern: RegExp = /^(?:#[0-9a-f]{3,8}|[a-z]{3,20}|rgba?\([\d\s.,%]{5,40}\))$/i;
