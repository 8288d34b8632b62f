/** How to recognise a matching line. */
export interface LineQuery {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
}

/** Zero-based numbers of the lines of `text` that match, at most `limit`. */
export function matchLines(text: string, query: LineQuery, limit: number): number[] {
  const lines = text.split('\n');
  const found: number[] = [];
  if (query.regex) {
    const expression = new RegExp(query.pattern, query.ignoreCase ? 'iu' : 'u');
    for (let index = 0; index < lines.length && found.length < limit; index++) {
      if (expression.test(lines[index] as string)) found.push(index);
    }
    return found;
  }
  const needle = query.ignoreCase ? query.pattern.toLowerCase() : query.pattern;
  const haystack = query.ignoreCase ? text.toLowerCase() : text;
  // Search the whole text once and map hits to lines: far fewer calls than a
  // test per line when matches are rare, which they usually are.
  let at = haystack.indexOf(needle);
  let line = 0;
  let lineStart = 0;
  while (at !== -1 && found.length < limit) {
    let next = haystack.indexOf('\n', lineStart);
    while (next !== -1 && next < at) {
      line++;
      lineStart = next + 1;
      next = haystack.indexOf('\n', lineStart);
    }
    found.push(line);
    at = next === -1 ? -1 : haystack.indexOf(needle, next + 1);
  }
  return found;
}
