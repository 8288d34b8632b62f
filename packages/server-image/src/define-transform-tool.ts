import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { type ImageSourceArguments, imageSourceFields } from './image-source.ts';
import type { Operation } from './operations/operation.ts';
import { type OutputFormat, outputFields, outputFormats } from './output-format.ts';
import { keepMetadataField, type OutputArguments, transformImage } from './transform-image.ts';

export interface TransformToolDefinition<Fields extends z.ZodRawShape> {
  name: string;
  title: string;
  /** What the tool does; how results are delivered is added from the server's configuration. */
  description: string;
  /** The tool's own arguments, between the image source and the output arguments. */
  fields: Fields;
  /** Offer `keep_metadata` (single-pass tools only). Default true. */
  keepMetadata?: boolean;
  /** Make `format` required: the tool's whole job is choosing it. */
  requireFormat?: boolean;
  /** The output format when the call names none; default the input's. */
  defaultFormat?: OutputFormat;
  /** The steps, made once what they need (a watermark's overlay) is loaded. */
  operations(args: z.output<z.ZodObject<Fields>>, signal: AbortSignal): Operation[] | Promise<Operation[]>;
}

/**
 * Transforms only add files (to the output directory, when there is one) and
 * never replace one; the same call gives the same result; they reach the
 * network only when the operator allows URL input.
 */
function transformAnnotations(context: ImageContext) {
  return {
    readOnlyHint: context.outputs === undefined,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: context.fetcher !== undefined,
  };
}

/** The sentence every transform's description ends with. */
function deliveryNote(context: ImageContext): string {
  const edge = context.limits.previewMaxEdge;
  const file =
    context.outputs === undefined
      ? 'The result comes back as an image'
      : 'The full-size result is written to the output directory (returned as a resource link) and comes back as an image';
  return `${file}, scaled to fit ${edge} px on the long edge and ${context.limits.previewMaxBytes} bytes. Metadata (EXIF, GPS) is removed.`;
}

/**
 * A transform tool: the image source, the tool's own arguments and the
 * output arguments as its input; the shared result shape, annotations and
 * delivery sentence; and a run that hands the steps to `transformImage`.
 */
export function defineTransformTool<Fields extends z.ZodRawShape>(
  context: ImageContext,
  definition: TransformToolDefinition<Fields>,
): Tool {
  const input = z.object({
    ...imageSourceFields,
    ...definition.fields,
    ...outputFields,
    ...(definition.requireFormat === true
      ? { format: z.enum(outputFormats).describe('The format to convert to') }
      : {}),
    ...(definition.keepMetadata === false ? {} : { keep_metadata: keepMetadataField }),
  });
  return defineTool({
    name: definition.name,
    title: definition.title,
    description: `${definition.description} ${deliveryNote(context)}`,
    input,
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(parsed, call) {
      const args = parsed as ImageSourceArguments & OutputArguments;
      return transformImage(context, call, {
        source: { path: args.path, url: args.url, data: args.data },
        output: {
          format: args.format,
          quality: args.quality,
          lossless: args.lossless,
          output_name: args.output_name,
          keep_metadata: args.keep_metadata,
        },
        operations: (signal) => definition.operations(parsed as z.output<z.ZodObject<Fields>>, signal),
        defaultFormat: definition.defaultFormat,
      });
    },
  });
}
