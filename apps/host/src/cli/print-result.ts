import type { CallToolResult } from '@toolshed/mcp-core';

/** A tool result for a terminal: text as it is, structured content as indented JSON, other blocks as one line each. */
export function formatResult(result: CallToolResult): string {
  const lines: string[] = [];
  const texts = result.content.filter((block) => block.type === 'text');
  if (result.structuredContent !== undefined && texts.length <= 1) {
    lines.push(JSON.stringify(result.structuredContent, null, 2));
  } else {
    for (const block of texts) lines.push(block.text);
  }
  for (const block of result.content) {
    if (block.type === 'image' || block.type === 'audio') {
      lines.push(`[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`);
    } else if (block.type === 'resource_link') {
      lines.push(`[link ${block.uri}${block.mimeType === undefined ? '' : ` ${block.mimeType}`}]`);
    } else if (block.type === 'resource') {
      lines.push(`[resource ${block.resource.uri}]`);
    }
  }
  return `${result.isError === true ? 'error: ' : ''}${lines.join('\n')}\n`;
}
