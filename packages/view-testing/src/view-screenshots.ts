import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a view test puts its screenshot `name`: the package's `screenshots/`
 * (shown in its README) with TOOLSHED_UPDATE_SCREENSHOTS=1, else a temporary
 * directory. `testFile` is the test's `import.meta.url`, in the package's `src/`.
 */
export function viewScreenshotPath(testFile: string, name: string): string {
  const directory =
    process.env.TOOLSHED_UPDATE_SCREENSHOTS === '1'
      ? new URL('../screenshots/', testFile).pathname
      : join(tmpdir(), 'toolshed-view-screenshots');
  mkdirSync(directory, { recursive: true });
  return join(directory, name);
}
