import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory with an allowed tree, a prefix sibling, and an outside full of secrets. */
export interface Sandbox {
  /** The real path of the parent of everything below. */
  readonly base: string;
  /** The directory the server is given. */
  readonly allowed: string;
  /** A sibling whose name starts with the allowed one's. */
  readonly sibling: string;
  readonly outside: string;
  readonly secret: string;
  remove(): void;
}

export const secretText = 'TOP SECRET: outside the sandbox';

export function createSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-fs-')));
  const allowed = join(base, 'allowed');
  const sibling = join(base, 'allowed_evil');
  const outside = join(base, 'outside');
  for (const directory of [allowed, sibling, outside, join(allowed, 'docs'), join(allowed, 'src', 'lib')]) {
    mkdirSync(directory, { recursive: true });
  }
  const secret = join(outside, 'secret.txt');
  writeFileSync(secret, secretText);
  writeFileSync(join(sibling, 'secret.txt'), secretText);
  writeFileSync(join(allowed, 'hello.txt'), 'Hello, world!\nSecond line\nThird line\n');
  writeFileSync(join(allowed, 'docs', 'notes.md'), '# Notes\n\n- alpha\n- beta\n');
  writeFileSync(join(allowed, 'src', 'main.ts'), 'export const answer = 42;\n// TODO: more\n');
  writeFileSync(join(allowed, 'src', 'lib', 'util.ts'), 'export function twice(x: number) {\n  return x * 2;\n}\n');
  symlinkSync(secret, join(allowed, 'link-to-secret'));
  symlinkSync(outside, join(allowed, 'link-to-outside'));
  symlinkSync(join(allowed, 'hello.txt'), join(allowed, 'link-to-hello'));
  symlinkSync(join(outside, 'missing.txt'), join(allowed, 'dangling-out'));
  return { base, allowed, sibling, outside, secret, remove: () => rmSync(base, { recursive: true, force: true }) };
}
