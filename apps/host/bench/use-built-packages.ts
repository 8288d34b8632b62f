/**
 * Loaded with `node --import` into the processes the HTTP bench starts: every
 * `@toolshed/*` import resolves to the package's built `dist/` entry (its
 * `publishConfig.exports`), as it would once installed from npm, instead of
 * the `src/` entry the workspace uses.
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const subpath = /^@toolshed\/[^/]+(\/.+)?$/.exec(specifier);
    if (subpath === null || !resolved.url.includes('/src/')) return resolved;
    // Inside the workspace every entry is <package>/src/<entry>.ts.
    const root = new URL('../', resolved.url);
    const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      publishConfig?: { exports?: Record<string, { default?: string }> };
    };
    const built = manifest.publishConfig?.exports?.[subpath[1] === undefined ? '.' : `.${subpath[1]}`]?.default;
    return built === undefined ? resolved : { url: new URL(built, root).href, format: 'module', shortCircuit: true };
  },
});
