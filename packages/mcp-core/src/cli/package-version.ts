// Built-ins are taken with getBuiltinModule, not imported: as an ES module import, node:fs builds a facade of
// every export at start, its lazily loaded parts included (promises, streams, watchers).
const { readFileSync } = process.getBuiltinModule('node:fs');

/** Versions already read, by package.json URL. */
const versions = new Map<string, string>();

/**
 * The version in the package.json one folder above a module — the package's
 * own, whether the module runs from `src/` or from its bundle in `dist/`. It
 * is read when asked rather than copied at build time, so `--version` and
 * `serverInfo.version` can never disagree with the version that was
 * published.
 *
 * @example
 * const version = packageVersion(import.meta.url); // '1.4.0'
 */
export function packageVersion(moduleUrl: string | URL): string {
  const manifestUrl = new URL('../package.json', moduleUrl).href;
  // A server's bin and its factory both ask at start-up: the file is read once.
  let version = versions.get(manifestUrl);
  if (version === undefined) {
    const manifest = JSON.parse(readFileSync(new URL(manifestUrl), 'utf8')) as { version?: unknown };
    if (typeof manifest.version !== 'string') {
      throw new Error(`no version in the package.json above ${String(moduleUrl)}`);
    }
    version = manifest.version;
    versions.set(manifestUrl, version);
  }
  return version;
}
