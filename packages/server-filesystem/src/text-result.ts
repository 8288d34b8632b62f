import { type ContentBlock, structuredResult, type ToolResult, textContent } from '@toolshed/mcp-core';
import * as z from 'zod';

/** What a tool says about its text (counts, cuts, outcomes): anything but `content`, which is the text. */
export type TextFields = Record<string, unknown> & { content?: never };

/**
 * The reference server's result shape: the text as the first content block
 * and as `structuredContent.content`, the same string in both, so clients
 * that read either (mcporter and the Inspector read `structuredContent`)
 * get the text. Our fields about it sit beside `content`. A note for the
 * model (a cut, how to read on) goes in a second block, so clients that
 * parse the first one (JSON trees) still can.
 */
export function textResult(text: string, fields: TextFields, note?: string): ToolResult {
  const content: ContentBlock[] = note === undefined ? [] : [textContent(note)];
  return structuredResult({ content: text, ...fields }, { text, content });
}

/**
 * The output schema of a tool answered by `textResult`: the reference
 * server's `{content: string}`, and the tool's own fields beside it.
 *
 * @example
 * output: () => textOutput({ created: z.boolean() }),
 */
export function textOutput<Shape extends z.ZodRawShape>(
  shape: Shape,
): z.ZodObject<{ content: z.ZodString } & Shape, z.core.$strip> {
  return z.object({ content: z.string(), ...shape });
}
