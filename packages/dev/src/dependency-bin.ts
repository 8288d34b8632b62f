import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The script of a dependency's bin, found where Node would look for the
 * package (`mcpb`, `publint`, `attw`): run it with `process.execPath`.
 * Found by directory rather than by `require.resolve`, since some of these
 * packages export no `package.json`.
 */
export function dependencyBin(packageName: string, binName: string): string {
  const searched = createRequire(import.meta.url).resolve.paths(packageName) ?? [];
  for (const modules of searched) {
    const directory = join(modules, packageName);
    if (!existsSync(join(directory, 'package.json'))) continue;
    const { bin } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    const script = typeof bin === 'string' ? bin : bin?.[binName];
    if (script !== undefined) return join(directory, script);
  }
  throw new Error(`${packageName} is not installed: it provides ${binName}`);
}
