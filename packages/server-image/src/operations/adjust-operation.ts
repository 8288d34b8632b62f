import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { Operation } from './operation.ts';

export function adjustFields(): {
  grayscale: z.ZodOptional<z.ZodBoolean>;
  blur: z.ZodOptional<z.ZodNumber>;
  sharpen: z.ZodOptional<z.ZodNumber>;
  normalise: z.ZodOptional<z.ZodBoolean>;
  brightness: z.ZodOptional<z.ZodNumber>;
  saturation: z.ZodOptional<z.ZodNumber>;
  hue: z.ZodOptional<z.ZodNumber>;
  negate: z.ZodOptional<z.ZodBoolean>;
} {
  return {
    grayscale: z.boolean().optional().describe('Remove colour'),
    blur: z.number().min(0.3).max(100).optional().describe('Gaussian blur radius (sigma) in pixels, 0.3 to 100'),
    sharpen: z
      .number()
      .min(0.3)
      .max(10)
      .optional()
      .describe('Sharpen with this sigma, 0.3 to 10 (1 is a mild default)'),
    normalise: z.boolean().optional().describe('Stretch contrast so the darkest pixel is black and the lightest white'),
    brightness: z
      .number()
      .min(0.1)
      .max(10)
      .optional()
      .describe('Brightness multiplier: 1 unchanged, 0.5 darker, 1.5 brighter'),
    saturation: z.number().min(0).max(10).optional().describe('Saturation multiplier: 1 unchanged, 0 grey, 2 vivid'),
    hue: z.number().min(-360).max(360).optional().describe('Hue rotation in degrees'),
    negate: z.boolean().optional().describe('Invert the colours'),
  };
}

export type AdjustArguments = {
  grayscale?: boolean | undefined;
  blur?: number | undefined;
  sharpen?: number | undefined;
  normalise?: boolean | undefined;
  brightness?: number | undefined;
  saturation?: number | undefined;
  hue?: number | undefined;
  negate?: boolean | undefined;
};

// Every adjustment, complete by its type: a field added to AdjustArguments and not here does not compile.
const adjustments = Object.keys({
  grayscale: 0,
  blur: 0,
  sharpen: 0,
  normalise: 0,
  brightness: 0,
  saturation: 0,
  hue: 0,
  negate: 0,
} satisfies Record<keyof AdjustArguments, 0>) as (keyof AdjustArguments)[];

export function adjustOperation(args: AdjustArguments): Operation {
  return {
    name: 'adjust',
    animated: true,
    plan(input) {
      const given = adjustments.filter((key) => args[key] !== undefined && args[key] !== false);
      if (given.length === 0) {
        throw new ToolError(
          'adjust needs at least one of grayscale, blur, sharpen, normalise, brightness, saturation, hue, negate.',
        );
      }
      return input;
    },
    apply(image) {
      let adjusted = image;
      if (args.brightness !== undefined || args.saturation !== undefined || args.hue !== undefined) {
        adjusted = adjusted.modulate({
          ...(args.brightness === undefined ? {} : { brightness: args.brightness }),
          ...(args.saturation === undefined ? {} : { saturation: args.saturation }),
          ...(args.hue === undefined ? {} : { hue: Math.round(args.hue) }),
        });
      }
      if (args.normalise === true) adjusted = adjusted.normalise();
      if (args.grayscale === true) adjusted = adjusted.grayscale();
      if (args.negate === true) adjusted = adjusted.negate({ alpha: false });
      if (args.blur !== undefined) adjusted = adjusted.blur(args.blur);
      if (args.sharpen !== undefined) adjusted = adjusted.sharpen({ sigma: args.sharpen });
      return adjusted;
    },
  };
}
