import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const loader = new URL('./run-bundle-with-code-cache.ts', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'bundle-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
/** A bundle as the build writes it (a hash line, then CommonJS) and the start module that runs it. */
function writeBin(body: string, hash = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'): { start: string; cacheDirectory: string } {
  const name = `bin-${count++}`;
  writeFileSync(join(work, `${name}.cjs`), `// ${hash}\n${body}\n`);
  const start = join(work, `${name}.mjs`);
  writeFileSync(
    start,
    `import { runBundleWithCodeCache } from ${JSON.stringify(loader)};\nawait runBundleWithCodeCache(new URL('./${name}.cjs', import.meta.url));\n`,
  );
  return { start, cacheDirectory: join(work, `${name}-cache`) };
}

function run(start: string, cacheDirectory: string, env: Record<string, string> = {}) {
  const { NODE_DISABLE_COMPILE_CACHE: _, ...inherited } = process.env;
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `(await import('node:module')).enableCompileCache?.(); await import(${JSON.stringify(start)});`,
    ],
    { env: { ...inherited, NODE_COMPILE_CACHE: cacheDirectory, ...env }, encoding: 'utf8' },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The cache files under Node's compile-cache directory for this Node (a folder inside `NODE_COMPILE_CACHE`). */
function cacheFiles(cacheDirectory: string): string[] {
  if (!existsSync(cacheDirectory)) return [];
  return readdirSync(cacheDirectory).flatMap((version) => {
    const directory = join(cacheDirectory, version, 'toolshed');
    return existsSync(directory) ? readdirSync(directory).map((name) => join(directory, name)) : [];
  });
}

const greeting = `
function greet(name) { return 'hello ' + name + ' from ' + require('node:path').basename(__filename); }
exports.default = Promise.resolve().then(() => { process.stdout.write(greet('you')); });
`;

describe('runBundleWithCodeCache: a bin bundle run with a code cache taken after start-up', () => {
  it('runs the bundle with the CommonJS names, and writes its cache at exit, readable by this user only', () => {
    const { start, cacheDirectory } = writeBin(greeting);
    expect(run(start, cacheDirectory)).toMatchObject({ status: 0, stdout: 'hello you from bin-0.cjs' });
    const [cache, ...others] = cacheFiles(cacheDirectory);
    expect(others).toEqual([]);
    expect(cache).toMatch(/\/toolshed\/bin-0\.cjs@a1b2c3d4e5f60718\.v8cache$/);
    expect(statSync(cache as string).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache as string, '..')).mode & 0o777).toBe(0o700);
  });

  it('uses the cache on the next start without writing it again', () => {
    const { start, cacheDirectory } = writeBin(greeting);
    run(start, cacheDirectory);
    const [cache] = cacheFiles(cacheDirectory);
    const before = statSync(cache as string);
    expect(run(start, cacheDirectory)).toMatchObject({ status: 0, stdout: 'hello you from bin-1.cjs' });
    const after = statSync(cache as string);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('replaces a cache V8 refuses (damaged), and the bundle still runs', () => {
    const { start, cacheDirectory } = writeBin(greeting);
    run(start, cacheDirectory);
    const [cache] = cacheFiles(cacheDirectory);
    writeFileSync(cache as string, Buffer.alloc(4096, 7), { mode: 0o600 });
    const damaged = statSync(cache as string).ino;
    expect(run(start, cacheDirectory)).toMatchObject({ status: 0, stdout: 'hello you from bin-2.cjs' });
    expect(statSync(cache as string).ino).not.toBe(damaged);
  });

  it.skipIf(process.getuid === undefined)('ignores a cache file that others can write to, and replaces it', () => {
    const { start, cacheDirectory } = writeBin(greeting);
    run(start, cacheDirectory);
    const [cache] = cacheFiles(cacheDirectory);
    chmodSync(cache as string, 0o666);
    expect(run(start, cacheDirectory)).toMatchObject({ status: 0, stdout: 'hello you from bin-3.cjs' });
    expect(statSync(cache as string).mode & 0o777).toBe(0o600);
  });

  it("removes another build's cache of the bin when it is over a day old, and keeps a recent one", () => {
    const { start, cacheDirectory } = writeBin(greeting, '1111111111111111aaaa');
    run(start, cacheDirectory);
    const [first] = cacheFiles(cacheDirectory);
    writeFileSync(start.replace(/\.mjs$/, '.cjs'), `// 2222222222222222bbbb\n${greeting}\n`);
    run(start, cacheDirectory);
    const names = () => cacheFiles(cacheDirectory).map((file) => file.split('@')[1]);
    expect(names().sort()).toEqual(['1111111111111111.v8cache', '2222222222222222.v8cache']);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(first as string, twoDaysAgo, twoDaysAgo);
    writeFileSync(start.replace(/\.mjs$/, '.cjs'), `// 3333333333333333cccc\n${greeting}\n`);
    expect(run(start, cacheDirectory)).toMatchObject({ status: 0 });
    expect(names().sort()).toEqual(['2222222222222222.v8cache', '3333333333333333.v8cache']);
  });

  it('writes no cache under NODE_DISABLE_COMPILE_CACHE, or for a bundle without a hash line', () => {
    const disabled = writeBin(greeting);
    expect(run(disabled.start, disabled.cacheDirectory, { NODE_DISABLE_COMPILE_CACHE: '1' })).toMatchObject({
      status: 0,
    });
    expect(cacheFiles(disabled.cacheDirectory)).toEqual([]);
    const unhashed = writeBin(greeting);
    writeFileSync(unhashed.start.replace(/\.mjs$/, '.cjs'), greeting);
    expect(run(unhashed.start, unhashed.cacheDirectory)).toMatchObject({ status: 0, stdout: /^hello you/ });
    expect(cacheFiles(unhashed.cacheDirectory)).toEqual([]);
  });

  it('leaves no cache after a failed run (a configuration mistake exits 2)', () => {
    const { start, cacheDirectory } = writeBin(`exports.default = Promise.resolve().then(() => process.exit(2));`);
    expect(run(start, cacheDirectory).status).toBe(2);
    expect(cacheFiles(cacheDirectory)).toEqual([]);
  });

  it('replaces the cache of a run that did little (--help) once a run has compiled much more', () => {
    // Many functions, called only by a real run that then stays up past the second the cache waits for.
    const functions = Array.from({ length: 300 }, (_, index) => `function part${index}(x) { return x + ${index}; }`);
    const calls = Array.from({ length: 300 }, (_, index) => `total = part${index}(total);`).join(' ');
    const { start, cacheDirectory } = writeBin(`${functions.join('\n')}
exports.default = Promise.resolve().then(() => {
  if (process.env.LITTLE === '1') return;
  let total = 0; ${calls}
  return new Promise((resolve) => setTimeout(resolve, 1500));
});`);
    expect(run(start, cacheDirectory, { LITTLE: '1' }).status).toBe(0);
    const [cache] = cacheFiles(cacheDirectory);
    const little = statSync(cache as string);
    expect(run(start, cacheDirectory).status).toBe(0);
    const full = statSync(cache as string);
    expect(full.ino).not.toBe(little.ino);
    expect(full.size).toBeGreaterThan(little.size * 1.1);
    expect(run(start, cacheDirectory).status).toBe(0);
    expect(statSync(cache as string).ino).toBe(full.ino);
  });

  it("fails as the bin's run fails: its error, exit code 1", () => {
    const { start, cacheDirectory } = writeBin(
      `exports.default = Promise.reject(new Error('cannot open the database'));`,
    );
    const result = run(start, cacheDirectory);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('cannot open the database');
  });
});
