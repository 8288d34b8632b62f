/**
 * Where quoted text starting at `start` ends (the index after its closing
 * quote), or -1 when it is not closed: the quote doubled inside escapes it,
 * and so does a backslash where the dialect reads one (MySQL strings,
 * PostgreSQL `E'…'`).
 */
export function quotedEnd(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let index = start + 1;
  while (index < sql.length) {
    const char = sql[index];
    if (backslashEscapes && char === '\\') index += 2;
    else if (char === quote) {
      if (sql[index + 1] === quote) index += 2;
      else return index + 1;
    } else index++;
  }
  return -1;
}
