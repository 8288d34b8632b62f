/**
 * The tree every filesystem bench walks: 8 directories per level, 3 levels
 * below the top, 26 small files in each directory (15,210 files in 585
 * directories). Made once under bench/.data and reused.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const branching = 8;
export const levels = 3;
export const filesPerDirectory = 26;
export const dataDirectory: string = new URL('./.data/', import.meta.url).pathname;
export const generatedTree: string = join(dataDirectory, `tree-${branching}-${levels}-${filesPerDirectory}`);
export const directoryCount: number = (branching ** (levels + 1) - 1) / (branching - 1);

/** Makes the tree when it is missing; returns how many files it has. */
export function generateTree(): number {
  let files = 0;
  const fill = (directory: string, level: number) => {
    mkdirSync(directory, { recursive: true });
    for (let index = 0; index < filesPerDirectory; index++) {
      const extension = ['ts', 'md', 'json'][index % 3];
      writeFileSync(
        join(directory, `file-${index}.${extension}`),
        `// file ${files++}\nexport const value = ${index};\n`,
      );
    }
    if (level < levels)
      for (let index = 0; index < branching; index++) fill(join(directory, `dir-${index}`), level + 1);
  };
  if (!existsSync(generatedTree)) {
    const partial = `${generatedTree}.partial`;
    rmSync(partial, { recursive: true, force: true });
    fill(partial, 0);
    renameSync(partial, generatedTree);
  }
  return directoryCount * filesPerDirectory;
}

/** The middle value: robust to the one round another process slowed down. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Our bin as it ships when built, else from source; TOOLSHED_BENCH_BIN names another build (an earlier one, say). */
export const ourBin: string =
  process.env.TOOLSHED_BENCH_BIN ??
  (existsSync(new URL('../dist/toolshed-filesystem.js', import.meta.url))
    ? new URL('../bin/toolshed-filesystem.js', import.meta.url).pathname
    : new URL('../src/cli.ts', import.meta.url).pathname);
