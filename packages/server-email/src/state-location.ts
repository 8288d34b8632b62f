/**
 * Why a `state` setting cannot name a store, or undefined when it can: a
 * postgres:// URL that parses, a sqlite: URL, or a file path. Checked when
 * the options are read, so that a mistyped URL stops the bin at start;
 * whether the store answers is known only when a send first needs it.
 * The setting itself is never repeated: it may hold a password.
 */
export function stateLocationProblem(location: string): string | undefined {
  if (location.trim() === '') return 'must be a postgres:// URL or a file path, not empty';
  // Spelt as the state store reads them: in lower case.
  if (/^postgres(ql)?:/.test(location)) {
    return /^postgres(ql)?:\/\//.test(location) && URL.parse(location) !== null
      ? undefined
      : 'is not a valid URL: write postgres://user@host:port/database, with the password in PGPASSWORD';
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(location)?.[1];
  if (scheme === undefined || scheme === 'sqlite') return undefined;
  return `must be a postgres:// URL or a file path; ${scheme}:// is not a store this server can use`;
}

/** A store's URL as it may be shown: without its password. */
export function printableStateLocation(location: string): string {
  if (!/^postgres(ql)?:/.test(location)) return location;
  const url = URL.parse(location);
  if (url === null) return 'the configured postgres:// URL';
  url.password = '';
  return url.toString();
}

/** Text about a store with the password of its URL, if it had one, taken out. */
export function withoutPassword(text: string, location: string): string {
  const password = /^postgres(ql)?:\/\//.test(location) ? URL.parse(location)?.password : undefined;
  if (password === undefined || password === '') return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // Kept as written.
  }
  return text.replaceAll(password, '…').replaceAll(decoded, '…');
}
