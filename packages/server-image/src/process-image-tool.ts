import type { Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { adjustFields, adjustOperation } from './operations/adjust-operation.ts';
import { cropFields, cropOperation } from './operations/crop-operation.ts';
import type { Operation } from './operations/operation.ts';
import { resizeFields, resizeOperation } from './operations/resize-operation.ts';
import { rotateFields, rotateOperation } from './operations/rotate-operation.ts';
import { thumbnailFields, thumbnailOperation } from './operations/thumbnail-operation.ts';
import { watermarkFields, watermarkOperation } from './operations/watermark-operation.ts';
import { loadWatermarkMark, overlayField } from './watermark-mark.ts';

const maxSteps = 20;

const step = z.discriminatedUnion('op', [
  z.object({ op: z.literal('resize'), ...resizeFields }),
  z.object({ op: z.literal('crop'), ...cropFields }),
  z.object({ op: z.literal('rotate'), ...rotateFields }),
  z.object({ op: z.literal('adjust'), ...adjustFields }),
  z.object({ op: z.literal('thumbnail'), ...thumbnailFields }),
  z.object({ op: z.literal('watermark'), ...watermarkFields, overlay: overlayField }),
]);

type Step = z.infer<typeof step>;

async function operationFor(item: Step, context: ImageContext, signal: AbortSignal): Promise<Operation> {
  switch (item.op) {
    case 'resize':
      return resizeOperation(item);
    case 'crop':
      return cropOperation(item);
    case 'rotate':
      return rotateOperation(item);
    case 'adjust':
      return adjustOperation(item);
    case 'thumbnail':
      return thumbnailOperation(item);
    case 'watermark':
      return watermarkOperation(item, await loadWatermarkMark(item, context, signal));
  }
}

/**
 * Several steps on one decode. The focused tools are easier for a model to
 * call right; this one saves a round trip and a re-encode per extra step,
 * and keeps the quality a chain of separate lossy saves would lose.
 */
export function createProcessImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'process_image',
    title: 'Process Image (pipeline)',
    description:
      'Apply several steps to an image in order, decoding it once and encoding once: e.g. crop, then resize, then ' +
      'adjust, then watermark. Each step is {"op": "resize"|"crop"|"rotate"|"adjust"|"thumbnail"|"watermark", ...} ' +
      `with the arguments of the matching single tool; up to ${maxSteps} steps. Use it instead of chaining tools.`,
    fields: { operations: z.array(step).min(1).max(maxSteps).describe('The steps, applied in order') },
    keepMetadata: false,
    operations: (args, signal) => Promise.all(args.operations.map((item) => operationFor(item, context, signal))),
  });
}
