import {
  type ContentBlock,
  imageContent,
  resourceLinkContent,
  structuredResult,
  type ToolResult,
} from '@toolshed/mcp-core';
import * as z from 'zod';
import type { EncodedImage } from './fit-preview.ts';
import type { ProbedImage } from './image-probe.ts';
import { mediaTypes, outputFormats } from './output-format.ts';
import type { RenderOutcome } from './render-image.ts';
import type { WrittenFile } from './write-result.ts';

export function imageResultShape(): z.ZodObject<{
  source: z.ZodObject<{
    format: z.ZodString;
    width: z.ZodNumber;
    height: z.ZodNumber;
    frames: z.ZodNumber;
    bytes: z.ZodNumber;
  }>;
  operations: z.ZodArray<z.ZodString>;
  result: z.ZodObject<{
    format: z.ZodEnum<{ [K in (typeof outputFormats)[number]]: K }>;
    width: z.ZodNumber;
    height: z.ZodNumber;
    frames: z.ZodNumber;
    bytes: z.ZodOptional<z.ZodNumber>;
  }>;
  preview: z.ZodObject<{
    format: z.ZodEnum<{ [K in (typeof outputFormats)[number]]: K }>;
    width: z.ZodNumber;
    height: z.ZodNumber;
    bytes: z.ZodNumber;
    scaled: z.ZodBoolean;
  }>;
  file: z.ZodOptional<z.ZodObject<{ path: z.ZodString; uri: z.ZodString; bytes: z.ZodNumber }>>;
  metadata: z.ZodEnum<{ stripped: 'stripped'; kept: 'kept'; written: 'written' }>;
  notes: z.ZodOptional<z.ZodArray<z.ZodString>>;
}> {
  const size = { width: z.number().int(), height: z.number().int() };
  return z.object({
    source: z.object({ format: z.string(), ...size, frames: z.number().int(), bytes: z.number().int() }),
    operations: z.array(z.string()).describe('The steps applied, in order'),
    result: z
      .object({ format: z.enum(outputFormats), ...size, frames: z.number().int(), bytes: z.number().int().optional() })
      .describe('The full-size result'),
    preview: z
      .object({ format: z.enum(outputFormats), ...size, bytes: z.number().int(), scaled: z.boolean() })
      .describe('The image in this result; scaled is true when it is smaller than the full-size result'),
    file: z
      .object({ path: z.string(), uri: z.string(), bytes: z.number().int() })
      .optional()
      .describe('Where the full-size result was written, when the server has an output directory'),
    metadata: z
      .enum(['stripped', 'kept', 'written'])
      .describe('written: the metadata step’s fields, over the kept metadata with keep_metadata, else alone'),
    notes: z.array(z.string()).optional(),
  });
}

export type ImageResultData = z.infer<ReturnType<typeof imageResultShape>>;

function previewOf(preview: EncodedImage, outcome: RenderOutcome) {
  return {
    format: preview.format,
    width: preview.width,
    height: preview.height,
    bytes: preview.data.length,
    scaled: preview.width < outcome.result.width || preview.height < outcome.result.height,
  };
}

/**
 * The result of a transform: the structured summary, the image itself as an
 * image block (never base64 inside text), and a link to the full-size file.
 */
export function imageResult(
  input: { bytes: Buffer; probe: ProbedImage },
  outcome: RenderOutcome,
  details: {
    operations: readonly string[];
    file: WrittenFile | undefined;
    metadata: 'stripped' | 'kept' | 'written';
  },
): ToolResult {
  const { probe } = input;
  const notes = [...outcome.notes];
  const preview = previewOf(outcome.preview, outcome);
  if (preview.scaled && details.file === undefined) {
    notes.push(
      `The image shown is scaled to ${preview.width}×${preview.height}; the ${outcome.result.width}×${outcome.result.height} result was not kept because the server has no output directory.`,
    );
  }
  if (outcome.preview.format !== outcome.result.format) {
    notes.push(`The image shown is ${outcome.preview.format}: clients do not display ${outcome.result.format}.`);
  }
  const data: ImageResultData = {
    source: {
      format: probe.format,
      width: probe.width,
      height: probe.height,
      frames: probe.frames,
      bytes: input.bytes.length,
    },
    operations: [...details.operations],
    result: {
      ...outcome.result,
      ...(outcome.full === undefined ? {} : { bytes: outcome.full.data.length }),
    },
    preview,
    ...(details.file === undefined ? {} : { file: details.file }),
    metadata: details.metadata,
    ...(notes.length === 0 ? {} : { notes }),
  };
  const content: ContentBlock[] = [imageContent(outcome.preview.data, mediaTypes[outcome.preview.format])];
  if (details.file !== undefined) {
    content.push(
      resourceLinkContent({
        uri: details.file.uri,
        name: details.file.path.split('/').pop() ?? 'image',
        mimeType: mediaTypes[outcome.result.format],
        size: details.file.bytes,
      }),
    );
  }
  return structuredResult(data, { content });
}
