import { type ContentBlock, structuredResult, type ToolResult, textContent } from '@toolshed/mcp-core';

/**
 * The reference server's result shape — the text as the only content block
 * and as `structuredContent.content` — plus our fields beside it. A note for
 * the model (a cut, how to read on) goes in a second block, so clients that
 * parse the first one (JSON trees) still can.
 */
export function textResult(text: string, extra: Record<string, unknown> = {}, note?: string): ToolResult {
  const content: ContentBlock[] = note === undefined ? [] : [textContent(note)];
  return structuredResult({ content: text, ...extra }, { text, content });
}
