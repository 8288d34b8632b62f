import { type ContentBlock, structuredResult, type ToolResult, textContent } from '@toolshed/mcp-core';

/**
 * The reference server's text as the first content block, and our fields
 * about it (counts, cuts, outcomes) as `structuredContent`. The text itself is
 * carried once: a 5 MB read is 5 MB on the wire, not 10, and the client checks
 * a small object against the output schema rather than the body. A note for
 * the model (a cut, how to read on) goes in a second block, so clients that
 * parse the first one (JSON trees) still can.
 */
export function textResult(text: string, fields: Record<string, unknown>, note?: string): ToolResult {
  const content: ContentBlock[] = note === undefined ? [] : [textContent(note)];
  return structuredResult(fields, { text, content });
}
