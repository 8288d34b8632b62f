import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { binBundleBuilds } from './bin-build.ts';

const work = mkdtempSync(join(tmpdir(), 'bin-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('binBundleBuilds: a bin as the servers ship theirs', () => {
  it('builds one ASCII CommonJS bundle with its hash line and a start module that runs it with a code cache', async () => {
    const entry = join(work, 'cli.mjs');
    writeFileSync(
      entry,
      [
        "import { basename } from 'node:path';",
        '// The run is the default export; the start module waits on it.',
        "export default Promise.resolve().then(() => process.stdout.write('caf\\u00e9 from ' + basename(__filename)));",
      ].join('\n'),
    );
    const directory = join(work, 'dist');
    for (const options of binBundleBuilds({ bin: 'demo', entry, directory })) {
      await build({ ...options, logLevel: 'silent' });
    }
    expect(readdirSync(directory).sort()).toEqual(['demo.cjs', 'demo.js']);
    const bundle = readFileSync(join(directory, 'demo.cjs'), 'utf8');
    expect(bundle).toMatch(/^\/\/ [0-9a-f]{64}\n/);
    expect(Buffer.byteLength(bundle)).toBe(bundle.length);
    expect(bundle).not.toContain('The run is the default export');

    const temporary = join(work, 'tmp');
    const { NODE_DISABLE_COMPILE_CACHE: _, NODE_COMPILE_CACHE: __, ...inherited } = process.env;
    const run = () =>
      spawnSync(process.execPath, [join(directory, 'demo.js')], {
        env: { ...inherited, TMPDIR: temporary },
        encoding: 'utf8',
      });
    for (let start = 0; start < 2; start++) {
      const result = run();
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('café from demo.cjs');
    }
    const caches = readdirSync(join(temporary, 'node-compile-cache'), { recursive: true, encoding: 'utf8' });
    expect(caches.some((name) => /toolshed\/demo\.cjs@[0-9a-f]{16}\.v8cache$/.test(name))).toBe(true);
  });
});
