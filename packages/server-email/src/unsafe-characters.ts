/**
 * Characters no header field may carry: controls (`Cc`: CR and LF above all,
 * the way headers are injected, NUL, DEL, and U+0085, a line break to some
 * parsers), the line and paragraph separators (`Zl`, `Zp`), and the invisible
 * format characters (`Cf`: zero-width, bidirectional overrides, BOM) that
 * make one string look like another to the human who confirms the send.
 */
const unsafeInHeader = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const unsafeEverywhere = new RegExp(unsafeInHeader.source, 'gu');

/** A value as it may be quoted back to the model or the user: unsafe characters as `\uXXXX`, long values cut. */
export function printable(value: string): string {
  const escaped = value.replace(
    unsafeEverywhere,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
  return escaped.length > 120 ? `${escaped.slice(0, 117)}...` : escaped;
}

/** The first unsafe character's description, or undefined when the value is clean. */
export function findUnsafeCharacter(value: string): string | undefined {
  const match = unsafeInHeader.exec(value);
  if (match === null) return undefined;
  const character = match[0];
  const named: Record<string, string> = { '\r': 'a carriage return (CR)', '\n': 'a line feed (LF)', '\t': 'a tab' };
  const code = character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
  return named[character] ?? `the control or invisible character U+${code}`;
}
