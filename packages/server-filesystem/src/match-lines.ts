/** How to recognise a matching line. */
export interface LineQuery {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
}

/** Finds the zero-based numbers of the matching lines of a text, at most `limit`. */
export type LineFinder = (text: string, limit: number) => number[];

// A negative lookaround can fail on the whole text where it holds within one
// line (it sees past the line's end), so those patterns get no whole-text test.
const negativeLookaround = /\(\?<?!/;

/** Compiles a query once, for many texts. */
export function createLineFinder(query: LineQuery): LineFinder {
  if (query.regex) {
    const expression = new RegExp(query.pattern, query.ignoreCase ? 'iu' : 'u');
    // One run over the whole text rejects most files at once: with `m`, a
    // match within any line is a match of the whole text (`^`, `$` then
    // match at line ends, `.` never crosses one), so no line is lost.
    const wholeText = negativeLookaround.test(query.pattern)
      ? undefined
      : new RegExp(query.pattern, query.ignoreCase ? 'imu' : 'mu');
    return (text, limit) => {
      if (wholeText !== undefined && !wholeText.test(text)) return [];
      const lines = text.split('\n');
      const found: number[] = [];
      for (let index = 0; index < lines.length && found.length < limit; index++) {
        if (expression.test(lines[index] as string)) found.push(index);
      }
      return found;
    };
  }
  const needle = query.ignoreCase ? query.pattern.toLowerCase() : query.pattern;
  return (text, limit) => {
    const haystack = query.ignoreCase ? text.toLowerCase() : text;
    const found: number[] = [];
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
  };
}
