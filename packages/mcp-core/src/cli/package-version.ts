import { readFileSync } from 'node:fs';

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
  const manifest = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string')
    throw new Error(`no version in the package.json above ${String(moduleUrl)}`);
  return manifest.version;
}
