/** The most a view's HTML may weigh: it travels in a resource read, once per conversation. */
export const viewByteBudget: number = 30 * 1024;

/**
 * What keeps a view's HTML from being small and self-contained: more than
 * 30 KB, a `src`/`href`/`action`/`srcset` naming an http(s) or
 * protocol-relative origin, or an element that loads another document.
 * Empty when the view passes.
 */
export function viewHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  const bytes = Buffer.byteLength(html);
  if (bytes > viewByteBudget) problems.push(`${bytes} bytes, over the budget of ${viewByteBudget}`);
  const remote = /\s(?:src|href|action|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i.exec(html);
  if (remote !== null) problems.push(`names another origin: ${remote[0].trim()}`);
  const loader = /<(?:link|iframe|object|embed|base)\b/i.exec(html);
  if (loader !== null) problems.push(`loads another document: ${loader[0]}`);
  return problems;
}
