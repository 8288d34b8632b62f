import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { checkOutputSize, type Operation } from './operation.ts';

export const cropStrategies = ['attention', 'entropy', 'centre'] as const;

export function cropFields(): {
  width: z.ZodNumber;
  height: z.ZodNumber;
  left: z.ZodOptional<z.ZodNumber>;
  top: z.ZodOptional<z.ZodNumber>;
  strategy: z.ZodDefault<z.ZodEnum<{ [K in (typeof cropStrategies)[number]]: K }>>;
} {
  return {
    width: z.number().int().min(1).max(65_535).describe('Width of the region in pixels'),
    height: z.number().int().min(1).max(65_535).describe('Height of the region in pixels'),
    left: z.number().int().min(0).optional().describe('Left edge of the region, pixels from the left (with top)'),
    top: z.number().int().min(0).optional().describe('Top edge of the region, pixels from the top (with left)'),
    strategy: z
      .enum(cropStrategies)
      .default('attention')
      .describe(
        'Without left/top: which part to keep. attention = the most salient (faces, skin, saturated colour), ' +
          'entropy = the most detailed, centre = the middle. The image is scaled down as little as needed to cover the size',
      ),
  };
}

export type CropArguments = {
  width: number;
  height: number;
  left?: number | undefined;
  top?: number | undefined;
  strategy: (typeof cropStrategies)[number];
};

export function cropOperation(args: CropArguments): Operation {
  const region = args.left !== undefined || args.top !== undefined;
  return {
    name: 'crop',
    animated: region,
    plan(input, limits) {
      if (region) {
        if (args.left === undefined || args.top === undefined) {
          throw new ToolError('A crop region needs both left and top (or neither, to choose by strategy).');
        }
        if (args.left + args.width > input.width || args.top + args.height > input.height) {
          throw new ToolError(
            `The region ${args.width}×${args.height} at (${args.left}, ${args.top}) reaches outside the ` +
              `${input.width}×${input.height} image; keep left + width ≤ ${input.width} and top + height ≤ ${input.height}.`,
          );
        }
      } else if (args.width > input.width || args.height > input.height) {
        throw new ToolError(
          `A ${args.width}×${args.height} crop does not fit in the ${input.width}×${input.height} image; use resize to enlarge.`,
        );
      }
      return checkOutputSize('crop', { ...input, width: args.width, height: args.height }, limits);
    },
    apply(image, _input, sharp) {
      if (region) {
        return image.extract({ left: args.left ?? 0, top: args.top ?? 0, width: args.width, height: args.height });
      }
      const position =
        args.strategy === 'attention'
          ? sharp.strategy.attention
          : args.strategy === 'entropy'
            ? sharp.strategy.entropy
            : 'centre';
      return image.resize({ width: args.width, height: args.height, fit: 'cover', position });
    },
  };
}
