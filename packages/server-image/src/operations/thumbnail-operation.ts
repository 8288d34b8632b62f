import * as z from 'zod';
import type { Operation } from './operation.ts';
import { resizeOperation } from './resize-operation.ts';

export function thumbnailFields(): {
  size: z.ZodDefault<z.ZodNumber>;
  fit: z.ZodDefault<z.ZodEnum<{ cover: 'cover'; inside: 'inside' }>>;
} {
  return {
    size: z.number().int().min(16).max(1024).default(256).describe('Edge of the thumbnail in pixels, 16 to 1024'),
    fit: z
      .enum(['cover', 'inside'])
      .default('cover')
      .describe(
        'cover = a size×size square around the most salient part (default); inside = the whole image within size×size',
      ),
  };
}

export type ThumbnailArguments = { size: number; fit: 'cover' | 'inside' };

export function thumbnailOperation(args: ThumbnailArguments): Operation {
  return resizeOperation(
    {
      width: args.size,
      height: args.size,
      fit: args.fit,
      position: args.fit === 'cover' ? 'attention' : 'centre',
      allow_enlargement: false,
      background: '#ffffff',
    },
    'thumbnail',
  );
}
