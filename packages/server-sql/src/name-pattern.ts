/**
 * A name search as list_tables takes it: a substring, or a glob when it holds
 * `*` or `?` (then it must match the whole name), case-insensitive either
 * way. The same pattern is read by the database (as a LIKE pattern over
 * lower-cased names, so that a schema of 100,000 tables is filtered where it
 * lives) and here (for SQLite's schema, read whole in the query process).
 */
export interface NamePattern {
  /** A LIKE pattern for `lower(name)`, with `\` escaping `%`, `_` and itself. */
  readonly like: string;
  matches(name: string): boolean;
}

const likeSpecial = /[\\%_]/g;
const regexSpecial = /[.*+?^${}()|[\]\\]/g;

export function namePattern(text: string): NamePattern {
  const lower = text.toLowerCase();
  const glob = /[*?]/.test(lower);
  let like = '';
  let source = '';
  for (const char of lower) {
    if (glob && char === '*') {
      like += '%';
      source += '.*';
    } else if (glob && char === '?') {
      like += '_';
      source += '.';
    } else {
      like += char.replace(likeSpecial, '\\$&');
      source += char.replace(regexSpecial, '\\$&');
    }
  }
  const expression = new RegExp(glob ? `^${source}$` : source, 'su');
  return {
    like: glob ? like : `%${like}%`,
    matches: (name) => expression.test(name.toLowerCase()),
  };
}
