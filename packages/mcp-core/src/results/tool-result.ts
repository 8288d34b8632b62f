import { markBranded } from '../errors/brand.ts';
import type { CallToolResult, ContentBlock } from '../protocol/mcp-types.ts';
import { textContent } from './content-blocks.ts';

const toolResultBrand: unique symbol = Symbol.for('@toolshed/mcp-core/ToolResult');

/** A `tools/call` result built by the helpers below. */
export type ToolResult = CallToolResult & { readonly [toolResultBrand]?: true };

/** Whether a tool's return value is a finished result rather than structured data to wrap. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[toolResultBrand] === true;
}

function brand(result: CallToolResult): ToolResult {
  markBranded(result, toolResultBrand);
  return result as ToolResult;
}

function toContent(content: string | ContentBlock | readonly ContentBlock[]): ContentBlock[] {
  if (typeof content === 'string') return [textContent(content)];
  if (Array.isArray(content)) return [...(content as readonly ContentBlock[])];
  return [content as ContentBlock];
}

/**
 * A successful result of unstructured content.
 *
 * @example
 * return toolResult([textContent('Resized.'), imageContent(png, 'image/png')]);
 */
export function toolResult(
  content: string | ContentBlock | readonly ContentBlock[],
  options?: { meta?: Record<string, unknown> },
): ToolResult {
  const result: CallToolResult = { content: toContent(content) };
  if (options?.meta !== undefined) result._meta = options.meta;
  return brand(result);
}

/**
 * A structured result: `structuredContent` plus its JSON text mirror first in
 * `content`, for clients that read only text. Extra content blocks follow.
 *
 * @example
 * return structuredResult({ temperature: 21.5, unit: 'celsius' });
 */
export function structuredResult(
  data: Record<string, unknown>,
  options?: {
    content?: readonly ContentBlock[];
    meta?: Record<string, unknown>;
    /**
     * `data` as JSON text, when it is already at hand (made in another process), so it is not encoded twice.
     * Without it the mirror is `JSON.stringify(data)`; prose for the model goes in `content`, after the mirror.
     */
    text?: string;
  },
): ToolResult {
  const result: CallToolResult = {
    content: [textContent(options?.text ?? JSON.stringify(data)), ...(options?.content ?? [])],
    structuredContent: data,
  };
  if (options?.meta !== undefined) result._meta = options.meta;
  return brand(result);
}

/**
 * A failed call the model can act on (SEP-1303): say what went wrong and what
 * to do instead.
 *
 * @example
 * return toolError('No table named "user". Tables: users, orders.');
 */
export function toolError(content: string | ContentBlock | readonly ContentBlock[]): ToolResult {
  return brand({ content: toContent(content), isError: true });
}
