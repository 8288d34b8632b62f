/**
 * Templates are the project's files with `__PLACEHOLDER__` words and
 * conditional blocks between `#if <flag>` and `#endif` comment lines (in
 * whatever comment the file type has: `//`, `#`, `<!-- -->`).
 */
const conditionStart = /^\s*(?:\/\/|#|<!--)\s*#if (\w+)\s*(?:-->)?\s*$/;
const conditionEnd = /^\s*(?:\/\/|#|<!--)\s*#endif\s*(?:-->)?\s*$/;

/**
 * A template's text with its blocks kept or dropped by `flags` and its
 * placeholders replaced; a placeholder without a value throws, so a template
 * cannot ship one unreplaced.
 *
 * @example
 * renderTemplate('// #if http\nhttp();\n// #endif\n__NAME__', { http: false }, { NAME: 'notes' }) // 'notes'
 */
export function renderTemplate(
  text: string,
  flags: Readonly<Record<string, boolean>>,
  values: Readonly<Record<string, string>>,
): string {
  const kept: string[] = [];
  const open: boolean[] = [];
  for (const line of text.split('\n')) {
    const start = conditionStart.exec(line);
    if (start !== null) {
      const flag = start[1] as string;
      if (!(flag in flags)) throw new Error(`template condition #if ${flag} has no flag`);
      open.push(flags[flag] === true);
    } else if (conditionEnd.test(line)) {
      if (open.pop() === undefined) throw new Error('template #endif without #if');
    } else if (open.every(Boolean)) {
      kept.push(line);
    }
  }
  if (open.length > 0) throw new Error('template #if without #endif');
  return kept
    .join('\n')
    .replace(/__(VERSION_[^_\s"]+(?:_[^_\s"]+)*|[A-Z](?:[A-Z]|_(?!_))*)__/g, (placeholder, key: string) => {
      const value = values[key];
      if (value === undefined) throw new Error(`template placeholder ${placeholder} has no value`);
      return value;
    });
}
