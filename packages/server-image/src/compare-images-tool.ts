import {
  type ContentBlock,
  defineTool,
  imageContent,
  resourceLinkContent,
  structuredResult,
  type Tool,
} from '@toolshed/mcp-core';
import * as z from 'zod';
import { startDeadline } from './call-deadline.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { imageSourceObject, loadImage } from './image-source.ts';
import { mediaTypes } from './output-format.ts';
import { pixelDifference } from './pixel-difference.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { writeResult } from './write-result.ts';

function comparisonShape() {
  const size = { format: z.string(), width: z.number().int(), height: z.number().int() };
  return z.object({
    a: z.object(size),
    b: z.object(size),
    width: z.number().int().describe('The size compared, a’s'),
    height: z.number().int(),
    mismatched_pixels: z.number().int(),
    mismatch_ratio: z.number().describe('mismatched_pixels ÷ pixels compared, 0 (same) to 1'),
    similarity: z.number().describe('1 − mismatch_ratio'),
    b_resized: z.boolean().describe('Whether b was scaled to a’s size (same shape, other size)'),
    diff: z
      .object({ path: z.string(), uri: z.string(), bytes: z.number().int() })
      .optional()
      .describe('The diff image, when the server has an output directory'),
  });
}

/**
 * How alike two images are, by pixelmatch: pixels whose colours differ
 * beyond a perceptual threshold (anti-aliasing aside), and an image of where.
 * A tool of its own: it takes two images and answers with a score.
 */
export function createCompareImagesTool(context: ImageServerContext): Tool {
  const { limits } = context;
  return defineTool({
    name: 'compare_images',
    title: 'Compare Images',
    description:
      'How alike two images are: mismatched pixels, similarity 0–1 and a diff image (red where they differ). a, b: {path|url|data}.',
    input: () =>
      z.object({
        a: imageSourceObject(),
        b: imageSourceObject(),
      }),
    output: comparisonShape,
    jsonSchemas: toolJsonSchemas.compare_images,
    annotations: {
      readOnlyHint: context.outputs === undefined,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: context.fetcher !== undefined,
    },
    task: 'optional',
    async run(args, call) {
      const deadline = startDeadline(limits.timeoutMs, call.signal);
      try {
        return await deadline.race(
          (async () => {
            const a = await loadImage(args.a, context, deadline.signal, 'a');
            const b = await loadImage(args.b, context, deadline.signal, 'b');
            return await context.limiter.run(async () => {
              const difference = await pixelDifference(a, b, limits, deadline);
              const file =
                context.outputs === undefined
                  ? undefined
                  : await writeResult(context.outputs, difference.diff, {
                      name: undefined,
                      stem: `${a.stem}-vs-${b.stem}`,
                      operations: ['diff'],
                    });
              const data: z.infer<ReturnType<typeof comparisonShape>> = {
                a: difference.a,
                b: difference.b,
                width: difference.width,
                height: difference.height,
                mismatched_pixels: difference.mismatched,
                mismatch_ratio: difference.mismatched / (difference.width * difference.height),
                similarity: 1 - difference.mismatched / (difference.width * difference.height),
                b_resized: difference.bResized,
                ...(file === undefined ? {} : { diff: file }),
              };
              const content: ContentBlock[] = [imageContent(difference.preview.data, mediaTypes.png)];
              if (file !== undefined) {
                content.push(
                  resourceLinkContent({
                    uri: file.uri,
                    name: file.path.split('/').pop() ?? 'diff.png',
                    mimeType: mediaTypes.png,
                    size: file.bytes,
                  }),
                );
              }
              return structuredResult(data, { content });
            }, deadline.signal);
          })(),
        );
      } finally {
        deadline.dispose();
      }
    },
  });
}
