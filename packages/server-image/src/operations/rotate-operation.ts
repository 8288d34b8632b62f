import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkOutputSize, colourPattern, type Operation } from './operation.ts';

export function rotateFields(): {
  angle: z.ZodDefault<z.ZodNumber>;
  flip: z.ZodDefault<z.ZodBoolean>;
  flop: z.ZodDefault<z.ZodBoolean>;
  background: z.ZodDefault<z.ZodString>;
} {
  return {
    angle: z
      .number()
      .min(-360)
      .max(360)
      .default(0)
      .describe('Degrees clockwise; other than multiples of 90 the canvas grows and corners get the background'),
    flip: z.boolean().default(false).describe('Mirror top to bottom (before rotating)'),
    flop: z.boolean().default(false).describe('Mirror left to right (before rotating)'),
    background: z
      .string()
      .regex(colourPattern)
      .default('#00000000')
      .describe('Colour of the corners an angle other than a multiple of 90 uncovers, as CSS; default transparent'),
  };
}

export type RotateArguments = { angle: number; flip: boolean; flop: boolean; background: string };

export function rotateOperation(args: RotateArguments): Operation {
  const angle = ((args.angle % 360) + 360) % 360;
  return {
    name: 'rotate',
    // sharp rotates single frames only; mirroring works on every frame.
    animated: angle === 0,
    plan(input, limits) {
      if (angle === 0 && !args.flip && !args.flop) throw new ToolError('rotate needs an angle, flip or flop.');
      const radians = (angle * Math.PI) / 180;
      const cos = Math.abs(Math.cos(radians));
      const sin = Math.abs(Math.sin(radians));
      const quarter = angle % 90 === 0;
      const width = quarter
        ? angle % 180 === 0
          ? input.width
          : input.height
        : Math.ceil(input.width * cos + input.height * sin);
      const height = quarter
        ? angle % 180 === 0
          ? input.height
          : input.width
        : Math.ceil(input.width * sin + input.height * cos);
      return checkOutputSize('rotate', { ...input, width, height }, limits);
    },
    apply(image) {
      let rotated = image;
      if (args.flip) rotated = rotated.flip();
      if (args.flop) rotated = rotated.flop();
      return angle === 0 ? rotated : rotated.rotate(angle, { background: args.background });
    },
  };
}
