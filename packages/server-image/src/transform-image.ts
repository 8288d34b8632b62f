import type { CallContext, ToolResult } from '@toolshed/mcp-core';
import * as z from 'zod';
import { startDeadline } from './call-deadline.ts';
import { decodableInput } from './decoded-input.ts';
import { imageResult } from './image-result.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { type ImageSourceArguments, loadImage } from './image-source.ts';
import { checkMetadata, type MetadataArguments } from './metadata-fields.ts';
import type { Operation } from './operations/operation.ts';
import { checkEncodeOptions, chosenFormat, type OutputFormat } from './output-format.ts';
import { renderImage } from './render-image.ts';
import { writeResult } from './write-result.ts';

export type OutputArguments = {
  format?: OutputFormat | undefined;
  quality?: number | undefined;
  lossless?: boolean | undefined;
  output_name?: string | undefined;
  keep_metadata?: boolean | undefined;
  /** Fields to write into the result's EXIF and XMP. */
  metadata?: MetadataArguments | undefined;
};

/** Keep EXIF (GPS included), XMP and the colour profile; the tool's description says they go by default. */
export function keepMetadataField(): z.ZodDefault<z.ZodBoolean> {
  return z.boolean().default(false);
}

export interface TransformRequest {
  source: ImageSourceArguments;
  output: OutputArguments;
  /** The steps, made once inputs they need (a watermark's overlay) are loaded. */
  operations: (signal: AbortSignal) => Promise<Operation[]> | Operation[];
  /** Only the fitted image, never a full-size file: a view's look at an input (`preview_source_image`). */
  previewOnly?: boolean;
}

/**
 * One transform call from start to finish, under its deadline: read the
 * input (path, data or a guarded download), wait for a turn, check the
 * header against the limits, render, write the full-size file when there is
 * an output directory, and answer with the fitted image.
 */
export async function transformImage(
  context: ImageServerContext,
  call: CallContext,
  request: TransformRequest,
): Promise<ToolResult> {
  const { limits } = context;
  const deadline = startDeadline(limits.timeoutMs, call.signal);
  try {
    return await deadline.race(
      (async () => {
        const input = await loadImage(request.source, context, deadline.signal);
        const operations = await request.operations(deadline.signal);
        return await context.limiter.run(async () => {
          const { bytes, probe } = await decodableInput(input, limits);
          const format = chosenFormat(
            request.output.format,
            request.output.output_name,
            // Without a format argument, the input's format is kept; HEIC, which sharp cannot write, becomes JPEG.
            probe.format === 'heic' ? 'jpeg' : probe.format,
          );
          const encode = { quality: request.output.quality, lossless: request.output.lossless };
          checkEncodeOptions(format, encode);
          const keepMetadata = request.output.keep_metadata === true;
          const metadata =
            request.output.metadata === undefined ? undefined : checkMetadata(request.output.metadata, keepMetadata);
          const outcome = await renderImage(
            {
              bytes,
              label: input.label,
              probe,
              operations,
              format,
              encode,
              keepMetadata,
              metadata,
              keepFull: context.outputs !== undefined && request.previewOnly !== true,
              progress: (done, total, message) => {
                call.progress(done, total, message);
              },
            },
            limits,
            deadline,
          );
          deadline.signal.throwIfAborted();
          const names = [
            ...operations.map((operation) => operation.name),
            ...(metadata === undefined ? [] : ['metadata']),
          ];
          const file =
            context.outputs === undefined || outcome.full === undefined
              ? undefined
              : await writeResult(context.outputs, outcome.full, {
                  name: request.output.output_name,
                  stem: input.stem,
                  operations: names,
                });
          return imageResult({ bytes: input.bytes, probe }, outcome, {
            operations: names,
            file,
            metadata: metadata !== undefined ? 'written' : keepMetadata ? 'kept' : 'stripped',
          });
        }, deadline.signal);
      })(),
    );
  } finally {
    deadline.dispose();
  }
}
