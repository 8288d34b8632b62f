import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@toolshed/mcp-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openVerifiedDirectory } from './verified-directory.ts';

const onLinux = process.platform === 'linux';
let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'verified-directory-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'docs', 'note.txt'), 'inside\n');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(onLinux)('openVerifiedDirectory', () => {
  it('reads a file of the directory whole, and says when one is over the cap', () => {
    const directory = openVerifiedDirectory(join(root, 'docs'), root);
    expect(directory).toBeDefined();
    const read = directory?.readFile('note.txt', 1024);
    expect(read?.kind === 'text' && read.bytes.toString()).toBe('inside\n');
    expect(directory?.readFile('note.txt', 3)).toEqual({ kind: 'too-large', size: 7 });
    directory?.close();
  });

  it.each([
    ['a link at the name', () => symlinkSync(join(outside, 'secret.txt'), join(root, 'docs', 'entry'))],
    ['a directory at the name', () => mkdirSync(join(root, 'docs', 'entry'))],
    ['a FIFO at the name, without waiting for a writer', () => execFileSync('mkfifo', [join(root, 'docs', 'entry')])],
  ])('never reads %s', (_name, make) => {
    make();
    const directory = openVerifiedDirectory(join(root, 'docs'), root);
    let read: unknown;
    try {
      read = directory?.readFile('entry', 1024);
    } catch (error) {
      read = (error as NodeJS.ErrnoException).code;
    }
    expect(read === 'ELOOP' || (read as { kind?: string }).kind === 'not-a-file').toBe(true);
    directory?.close();
  });

  it('refuses names that are not one name', () => {
    const directory = openVerifiedDirectory(root, root);
    expect(directory?.readFile('docs/note.txt', 1024)).toEqual({ kind: 'not-a-file' });
    expect(directory?.readFile('..', 1024)).toEqual({ kind: 'not-a-file' });
    directory?.close();
  });

  it('refuses a directory reached through a link leading outside', () => {
    symlinkSync(outside, join(root, 'linked'));
    expect(() => openVerifiedDirectory(join(root, 'linked'), root)).toThrow(/ELOOP|ENOTDIR/);
    symlinkSync(base, join(root, 'parent-link'));
    expect(() => openVerifiedDirectory(join(root, 'parent-link', 'outside'), root)).toThrow(ToolError);
  });

  it('throws on close when the directory was moved outside while its files were read', () => {
    const directory = openVerifiedDirectory(join(root, 'docs'), root);
    renameSync(join(root, 'docs'), join(outside, 'docs'));
    expect(() => directory?.close()).toThrow(ToolError);
  });
});
