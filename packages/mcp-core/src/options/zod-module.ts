import type * as Zod from 'zod';

let zod: typeof Zod | undefined;

/**
 * zod, loaded when the first option schema is built instead of imported by
 * the engine's entry: a server whose tools take JSON Schema then never loads
 * it (zod is some 95 modules, most of a plain start). Requiring zod's ES
 * module entry (Node 22.12 and later load an ES module with require) gives
 * the same instance as the `import 'zod'` of the server's own code. A bin's
 * bundle has zod inlined: there this module is swapped for a static import
 * (see bin-build.ts).
 */
export function zodModule(): typeof Zod {
  if (zod === undefined) {
    const { createRequire } = process.getBuiltinModule('node:module');
    const { fileURLToPath } = process.getBuiltinModule('node:url');
    zod = createRequire(import.meta.url)(fileURLToPath(import.meta.resolve('zod'))) as typeof Zod;
  }
  return zod;
}
