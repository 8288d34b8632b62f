import { defineTool, type Tool, ToolError, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { imageResultShape } from './image-result.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { imageSourceFields } from './image-source.ts';
import { type MetadataArguments, metadataFields } from './metadata-fields.ts';
import { adjustFields, adjustOperation } from './operations/adjust-operation.ts';
import { cropFields, cropOperation } from './operations/crop-operation.ts';
import type { Operation } from './operations/operation.ts';
import { resizeFields, resizeOperation } from './operations/resize-operation.ts';
import { rotateFields, rotateOperation } from './operations/rotate-operation.ts';
import { thumbnailFields, thumbnailOperation } from './operations/thumbnail-operation.ts';
import { watermarkFields, watermarkOperation } from './operations/watermark-operation.ts';
import { outputFields } from './output-format.ts';
import { processImageViewUri } from './process-image-view.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { keepMetadataField, transformImage } from './transform-image.ts';
import { loadWatermarkMark, overlayField } from './watermark-mark.ts';

const maxSteps = 20;

// Each step names its operation and takes only that operation's arguments, checked
// in full (ranges, patterns, which fields go together) when the call arrives.
function step() {
  return z.discriminatedUnion('op', [
    z.object({ op: z.literal('resize'), ...resizeFields() }),
    z.object({ op: z.literal('crop'), ...cropFields() }),
    z.object({ op: z.literal('rotate'), ...rotateFields() }),
    z.object({ op: z.literal('adjust'), ...adjustFields() }),
    z.object({ op: z.literal('thumbnail'), ...thumbnailFields() }),
    z.object({ op: z.literal('watermark'), ...watermarkFields(), overlay: overlayField() }),
    // Strict: a location, or any field not listed, is refused rather than dropped — GPS is never written.
    z.strictObject({ op: z.literal('metadata'), ...metadataFields() }),
  ]);
}

type Step = z.infer<ReturnType<typeof step>>;

// Advertised instead of the union's JSON Schema: every step's arguments as one
// line of text cost a model about an eighth of the tokens of a oneOf of six
// objects, and a wrong argument still comes back as an error naming the field.
const advertisedStep = { type: 'object', required: ['op'] };

const stepGuide =
  'Each {op, ...}; *default. ' +
  'resize {width, height, fit: inside*|cover|contain|fill|outside, position: centre*|top|bottom|left|right|attention|entropy, allow_enlargement, background}; ' +
  'crop {width, height, left+top | strategy: attention*|entropy|centre}; ' +
  'rotate {angle (clockwise), flip (vertical), flop, background}; ' +
  'adjust {grayscale, blur, sharpen, normalise, brightness (×), saturation (×), hue, negate}; ' +
  'thumbnail {size (256), fit: cover*|inside}; ' +
  'watermark {text | overlay {path|url|data}, gravity: southeast*|northwest|…|centre, opacity (0.5), scale (0.25), color, tile}; ' +
  'metadata {date, caption, keywords, copyright, author}';

type PixelStep = Exclude<Step, { op: 'metadata' }>;

async function operationFor(item: PixelStep, context: ImageServerContext, signal: AbortSignal): Promise<Operation> {
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
 * Transforms only add files (to the output directory, when there is one) and
 * never replace one; the same call gives the same result; they reach the
 * network only when the operator allows URL input.
 */
function transformAnnotations(context: ImageServerContext) {
  return {
    readOnlyHint: context.outputs === undefined,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: context.fetcher !== undefined,
  };
}

/** How the result is delivered, which depends on the server's configuration. */
function deliveryNote(context: ImageServerContext): string {
  const preview = `Returns a preview (≤${context.limits.previewMaxEdge} px)`;
  return context.outputs === undefined ? `${preview}.` : `${preview}; the full size goes to the output directory.`;
}

/**
 * Every transform is this one tool: the steps in order on one decode and one
 * encode. A chain of single-step calls would re-encode, and lose quality, at
 * every step and cost a round trip each; and one tool's definition costs a
 * model far fewer tokens on every turn than one tool per operation.
 */
export function createProcessImageTool(context: ImageServerContext): Tool {
  return defineTool({
    name: 'process_image',
    title: 'Process Image',
    description:
      'Edit or convert an image in one pass. Give one of path, url, data. ' +
      `${deliveryNote(context)} Strips metadata unless keep_metadata.`,
    input: () =>
      z.object({
        ...imageSourceFields({ described: false }),
        operations: z.array(step()).max(maxSteps).default([]).meta({ items: advertisedStep }).describe(stepGuide),
        ...outputFields(),
        keep_metadata: keepMetadataField(),
      }),
    output: imageResultShape,
    jsonSchemas: toolJsonSchemas.process_image,
    annotations: transformAnnotations(context),
    // Clients that render views show the result beside its input.
    meta: toolViewMeta({ resourceUri: processImageViewUri }),
    // A large pipeline still running after two seconds goes on as a task for clients that take tasks; the
    // call's deadline and its turn at the work limiter hold the same, and tasks/cancel stops it like a cancel.
    task: 'optional',
    run(args, call) {
      const pixelSteps = args.operations.filter((item): item is PixelStep => item.op !== 'metadata');
      const metadataSteps = args.operations.filter((item) => item.op === 'metadata');
      if (metadataSteps.length > 1) throw new ToolError('Give one metadata step with every field in it.');
      const [metadataStep] = metadataSteps;
      let metadata: MetadataArguments | undefined;
      if (metadataStep !== undefined) {
        const { op: _op, ...fields } = metadataStep;
        metadata = fields;
      }
      return transformImage(context, call, {
        source: { path: args.path, url: args.url, data: args.data },
        output: {
          format: args.format,
          quality: args.quality,
          lossless: args.lossless,
          output_name: args.output_name,
          keep_metadata: args.keep_metadata,
          metadata,
        },
        operations: (signal) => Promise.all(pixelSteps.map((item) => operationFor(item, context, signal))),
      });
    },
  });
}
