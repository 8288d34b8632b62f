import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const loader = new URL('./run-bundle-with-code-cache.ts', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'bundle-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
/** A bundle as the build writes it (a hash line, then CommonJS) and the start module that runs it. */
function writeBin(body: string, hash = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'): { start: string; temporary: string } {
  const name = `bin-${count++}`;
  writeFileSync(join(work, `${name}.cjs`), `// ${hash}\n${body}\n`);
  const start = join(work, `${name}.mjs`);
  writeFileSync(
    start,
    `import { runBundleWithCodeCache } from ${JSON.stringify(loader)};\nawait runBundleWithCodeCache(new URL('./${name}.cjs', import.meta.url));\n`,
  );
  return { start, temporary: join(work, `${name}-tmp`) };
}

/** Runs a start module with `temporary` as the system's temporary directory, where Node's compile cache goes by default. */
function run(start: string, temporary: string, env: Record<string, string> = {}) {
  const { NODE_DISABLE_COMPILE_CACHE: _, NODE_COMPILE_CACHE: __, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [start], {
    env: { ...inherited, TMPDIR: temporary, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The cache files under Node's default compile-cache directory for this Node. */
function cacheFiles(temporary: string): string[] {
  const base = join(temporary, 'node-compile-cache');
  if (!existsSync(base)) return [];
  return readdirSync(base).flatMap((version) => {
    const directory = join(base, version, 'toolshed');
    return existsSync(directory) ? readdirSync(directory).map((name) => join(directory, name)) : [];
  });
}

const greeting = `
function greet(name) { return 'hello ' + name + ' from ' + require('node:path').basename(__filename); }
exports.default = Promise.resolve().then(() => { process.stdout.write(greet('you')); });
`;

describe('runBundleWithCodeCache: a bin bundle run with a code cache taken after start-up', () => {
  it('runs the bundle with the CommonJS names, and writes its cache at exit, readable by this user only', () => {
    const { start, temporary } = writeBin(greeting);
    expect(run(start, temporary)).toMatchObject({ status: 0, stdout: 'hello you from bin-0.cjs' });
    const [cache, ...others] = cacheFiles(temporary);
    expect(others).toEqual([]);
    expect(cache).toMatch(/\/toolshed\/bin-0\.cjs@a1b2c3d4e5f60718\.v8cache$/);
    expect(statSync(cache as string).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache as string, '..')).mode & 0o777).toBe(0o700);
  });

  it('uses the cache on the next start without writing it again', () => {
    const { start, temporary } = writeBin(greeting);
    run(start, temporary);
    const [cache] = cacheFiles(temporary);
    const before = statSync(cache as string);
    expect(run(start, temporary)).toMatchObject({ status: 0, stdout: 'hello you from bin-1.cjs' });
    const after = statSync(cache as string);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('replaces a cache V8 refuses (damaged), and the bundle still runs', () => {
    const { start, temporary } = writeBin(greeting);
    run(start, temporary);
    const [cache] = cacheFiles(temporary);
    writeFileSync(cache as string, Buffer.alloc(4096, 7), { mode: 0o600 });
    const damaged = statSync(cache as string).ino;
    expect(run(start, temporary)).toMatchObject({ status: 0, stdout: 'hello you from bin-2.cjs' });
    expect(statSync(cache as string).ino).not.toBe(damaged);
  });

  it.skipIf(process.getuid === undefined)('ignores a cache file that others can write to, and replaces it', () => {
    const { start, temporary } = writeBin(greeting);
    run(start, temporary);
    const [cache] = cacheFiles(temporary);
    chmodSync(cache as string, 0o666);
    expect(run(start, temporary)).toMatchObject({ status: 0, stdout: 'hello you from bin-3.cjs' });
    expect(statSync(cache as string).mode & 0o777).toBe(0o600);
  });

  it("removes another build's cache of the bin when it is over a day old, and keeps a recent one", () => {
    const { start, temporary } = writeBin(greeting, '1111111111111111aaaa');
    run(start, temporary);
    const [first] = cacheFiles(temporary);
    writeFileSync(start.replace(/\.mjs$/, '.cjs'), `// 2222222222222222bbbb\n${greeting}\n`);
    run(start, temporary);
    const names = () => cacheFiles(temporary).map((file) => file.split('@')[1]);
    expect(names().sort()).toEqual(['1111111111111111.v8cache', '2222222222222222.v8cache']);
    const longAgo = new Date('2020-01-01T00:00:00Z');
    utimesSync(first as string, longAgo, longAgo);
    writeFileSync(start.replace(/\.mjs$/, '.cjs'), `// 3333333333333333cccc\n${greeting}\n`);
    expect(run(start, temporary)).toMatchObject({ status: 0 });
    expect(names().sort()).toEqual(['2222222222222222.v8cache', '3333333333333333.v8cache']);
  });

  it('writes no cache under NODE_DISABLE_COMPILE_CACHE, or for a bundle without a hash line', () => {
    const disabled = writeBin(greeting);
    expect(run(disabled.start, disabled.temporary, { NODE_DISABLE_COMPILE_CACHE: '1' })).toMatchObject({
      status: 0,
    });
    expect(cacheFiles(disabled.temporary)).toEqual([]);
    const unhashed = writeBin(greeting);
    writeFileSync(unhashed.start.replace(/\.mjs$/, '.cjs'), greeting);
    expect(run(unhashed.start, unhashed.temporary)).toMatchObject({ status: 0, stdout: /^hello you/ });
    expect(cacheFiles(unhashed.temporary)).toEqual([]);
  });

  it('leaves no cache after a failed run (a configuration mistake exits 2)', () => {
    const { start, temporary } = writeBin(`exports.default = Promise.resolve().then(() => process.exit(2));`);
    expect(run(start, temporary).status).toBe(2);
    expect(cacheFiles(temporary)).toEqual([]);
  });

  it('replaces the cache of a run that did little (--help) once a run has compiled much more', () => {
    // Many functions, called only by a real run that then stays up past the second the cache waits for.
    const functions = Array.from({ length: 300 }, (_, index) => `function part${index}(x) { return x + ${index}; }`);
    const calls = Array.from({ length: 300 }, (_, index) => `total = part${index}(total);`).join(' ');
    const { start, temporary } = writeBin(`${functions.join('\n')}
exports.default = Promise.resolve().then(() => {
  if (process.env.LITTLE === '1') return;
  let total = 0; ${calls}
  return new Promise((resolve) => setTimeout(resolve, 1500));
});`);
    expect(run(start, temporary, { LITTLE: '1' }).status).toBe(0);
    const [cache] = cacheFiles(temporary);
    const little = statSync(cache as string);
    expect(run(start, temporary).status).toBe(0);
    const full = statSync(cache as string);
    expect(full.ino).not.toBe(little.ino);
    expect(full.size).toBeGreaterThan(little.size * 1.1);
    expect(run(start, temporary).status).toBe(0);
    expect(statSync(cache as string).ino).toBe(full.ino);
  });

  it('creates the compile-cache directory private to this user', () => {
    const { start, temporary } = writeBin(greeting);
    expect(run(start, temporary).status).toBe(0);
    expect(statSync(join(temporary, 'node-compile-cache')).mode & 0o777).toBe(0o700);
    expect(cacheFiles(temporary)).toHaveLength(1);
  });

  it.skipIf(process.getuid === undefined)(
    'leaves every compile cache off when that directory is one others can write to (planted in a shared /tmp)',
    () => {
      const { start, temporary } = writeBin(greeting);
      const planted = join(temporary, 'node-compile-cache');
      mkdirSync(planted, { recursive: true });
      chmodSync(planted, 0o777);
      expect(run(start, temporary)).toMatchObject({ status: 0, stdout: /^hello you/ });
      expect(readdirSync(planted)).toEqual([]);
    },
  );

  it("fails as the bin's run fails: its error, exit code 1", () => {
    const { start, temporary } = writeBin(`exports.default = Promise.reject(new Error('cannot open the database'));`);
    const result = run(start, temporary);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('cannot open the database');
  });
});
