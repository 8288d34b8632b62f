import { type ResourceContents, viewMimeType } from '@toolshed/mcp-core';

/** The tag a view's runtime reads its tools' names on the host from (see mcp-core's view runtime). */
const toolNamesTag = 'mcp-view-tool-names';

function escapeAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * A view read through the host, told the names its server's tools have on
 * the host: the host prefixes tool names, and a view calls the names its
 * server gave, so its runtime maps them (`query_page` → `sql__query_page`).
 * Only that server's tools are named, so the map leads nowhere else. Other
 * contents pass unchanged.
 *
 * @example
 * withViewToolNames(contents, { query_page: 'sql__query_page' });
 */
export function withViewToolNames(
  contents: readonly ResourceContents[],
  names: Readonly<Record<string, string>>,
): ResourceContents[] {
  if (Object.entries(names).every(([own, onHost]) => own === onHost)) return [...contents];
  const tag = `<meta name="${toolNamesTag}" content="${escapeAttribute(JSON.stringify(names))}">`;
  return contents.map((item) => {
    if (item.mimeType !== viewMimeType || !('text' in item)) return item;
    const head = /<head(?:\s[^>]*)?>/i.exec(item.text);
    const at = head === null ? 0 : head.index + head[0].length;
    return { ...item, text: item.text.slice(0, at) + tag + item.text.slice(at) };
  });
}
