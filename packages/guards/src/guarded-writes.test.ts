import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathGuard } from './path-guard.ts';
import { walkDirectory } from './walk-directory.ts';

let base: string;
let root: string;
let readOnly: string;
let outside: string;
let guard: PathGuard;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'guarded-writes-')));
  root = join(base, 'root');
  readOnly = join(root, 'reference');
  outside = join(base, 'outside');
  for (const directory of [join(root, 'tree', 'deep'), readOnly, outside]) mkdirSync(directory, { recursive: true });
  writeFileSync(join(root, 'tree', 'a.txt'), 'a');
  writeFileSync(join(root, 'tree', 'deep', 'b.txt'), 'bb');
  writeFileSync(join(readOnly, 'kept.txt'), 'kept');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  guard = PathGuard.create([root, `${readOnly}:ro`]);
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const write = (path: string, options = {}) => guard.resolve(path, { access: 'write', ...options });

describe('appendFile', () => {
  it('appends whole, makes a missing file, and holds the size cap', async () => {
    expect(await guard.appendFile(await write('log.txt'), 'one\n')).toEqual({ created: true, size: 4 });
    expect(await guard.appendFile(await write('log.txt'), 'two\n')).toEqual({ created: false, size: 8 });
    await expect(guard.appendFile(await write('log.txt'), 'three\n', { maxFileBytes: 10 })).rejects.toThrow(
      /would be 14 bytes/,
    );
    expect(readFileSync(join(root, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it.each([
    ['a link at the name', () => symlinkSync(join(outside, 'secret.txt'), join(root, 'entry'))],
    ['a hard link to a file outside', () => linkSync(join(outside, 'secret.txt'), join(root, 'entry'))],
    ['a FIFO, without waiting for a reader', () => execFileSync('mkfifo', [join(root, 'entry')])],
  ])('refuses %s and changes nothing', async (_name, make) => {
    make();
    await expect(guard.appendFile(await write('entry', { keepLastLink: true }), 'pwned')).rejects.toThrow();
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('remove', () => {
  it('deletes a link, never what it points to', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link'));
    expect(await guard.remove(await write('link', { keepLastLink: true }))).toEqual({ files: 1, directories: 0 });
    expect(existsSync(join(outside, 'secret.txt'))).toBe(true);
  });

  it('deletes a directory only with recursive, and never through a link inside it', async () => {
    symlinkSync(outside, join(root, 'tree', 'deep', 'out'));
    await expect(guard.remove(await write('tree'))).rejects.toThrow(/pass recursive: true/);
    expect(await guard.remove(await write('tree'), { recursive: true })).toEqual({ files: 3, directories: 2 });
    expect(existsSync(join(root, 'tree'))).toBe(false);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses over the caps before deleting anything', async () => {
    await expect(guard.remove(await write('tree'), { recursive: true, maxEntries: 2 })).rejects.toThrow(
      /more than 2 entries; nothing was deleted/,
    );
    await expect(guard.remove(await write('tree'), { recursive: true, maxDepth: 1 })).rejects.toThrow(
      /more than 1 levels deep; nothing was deleted/,
    );
    expect(readFileSync(join(root, 'tree', 'deep', 'b.txt'), 'utf8')).toBe('bb');
  });

  it('refuses a grant root, a directory holding a grant, and read-only grants', async () => {
    await expect(guard.remove(await write('.'), { recursive: true })).rejects.toThrow(/allowed directory itself/);
    const onlyRoot = PathGuard.create([root, readOnly]);
    const above = await onlyRoot.resolve(root, { access: 'write' });
    await expect(onlyRoot.remove({ ...above, grant: { path: base, access: 'write' } })).rejects.toThrow(
      /allowed directory/,
    );
    await expect(write(join(readOnly, 'kept.txt'))).rejects.toThrow(/read-only/);
    expect(existsSync(join(readOnly, 'kept.txt'))).toBe(true);
  });
});

describe('copy', () => {
  it('copies a file with its mode, never over an existing one', async () => {
    chmodSync(join(root, 'tree', 'a.txt'), 0o640);
    const source = await guard.resolve('tree/a.txt', { keepLastLink: true });
    expect(await guard.copy(source, await write('copy.txt', { keepLastLink: true }))).toMatchObject({ bytes: 1 });
    expect(statSync(join(root, 'copy.txt')).mode & 0o777).toBe(0o640);
    await expect(guard.copy(source, await write('copy.txt', { keepLastLink: true }))).rejects.toThrow(/already exists/);
    expect(readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("keeps a tree's file modes past the umask, and their modification times", async () => {
    const files = { 'a.txt': 0o666, 'deep/b.txt': 0o1604 };
    for (const [name, mode] of Object.entries(files)) chmodSync(join(root, 'tree', name), mode);
    process.getBuiltinModule('node:fs').utimesSync(join(root, 'tree', 'a.txt'), 1_000_000, 1_234_567.5);
    await guard.copy(await guard.resolve('tree'), await write('moded', { keepLastLink: true }));
    for (const [name, mode] of Object.entries(files)) {
      expect(statSync(join(root, 'moded', name)).mode & 0o7777).toBe(mode);
    }
    expect(statSync(join(root, 'moded', 'a.txt')).mtimeMs).toBe(1_234_567_500);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'gives the copy to this process, not to the owner of the source (as root)',
    async () => {
      const source = join(root, 'tree', 'a.txt');
      process.getBuiltinModule('node:fs').chownSync(source, 12345, 12345);
      await guard.copy(await guard.resolve('tree'), await write('owned', { keepLastLink: true }));
      await guard.copy(await guard.resolve('tree/a.txt'), await write('owned.txt', { keepLastLink: true }));
      for (const copy of [join(root, 'owned', 'a.txt'), join(root, 'owned.txt')]) {
        expect(statSync(copy).uid).toBe(0);
        expect(statSync(copy).gid).toBe(process.getgid?.());
      }
    },
  );

  it('copies a tree, skipping and naming links, out of a read-only grant into a writable one', async () => {
    symlinkSync(outside, join(readOnly, 'out'));
    mkdirSync(join(readOnly, 'sub'));
    writeFileSync(join(readOnly, 'sub', 'c.txt'), 'ccc');
    const summary = await guard.copy(await guard.resolve(readOnly), await write('copied', { keepLastLink: true }));
    expect(summary).toEqual({ files: 2, directories: 2, bytes: 7, skipped: ['out'] });
    expect(readFileSync(join(root, 'copied', 'sub', 'c.txt'), 'utf8')).toBe('ccc');
    expect(existsSync(join(root, 'copied', 'out'))).toBe(false);
  });

  it('a tree that grows past the byte cap while it is copied is deleted again', async () => {
    const tree = join(root, 'growing');
    for (let directory = 0; directory < 4; directory++) {
      mkdirSync(join(tree, `d${directory}`), { recursive: true });
      for (let file = 0; file < 40; file++) writeFileSync(join(tree, `d${directory}`, `f${file}.txt`), 'x');
    }
    const copy = guard.copy(await guard.resolve('growing'), await write('growing-copy', { keepLastLink: true }), {
      maxBytes: 160,
    });
    // The tree was counted (160 bytes, within the cap) before copy answered, unless a busy machine made the count
    // yield first; the copy has not begun.
    writeFileSync(join(tree, 'd3', 'f39.txt'), 'grown');
    const refusal = await copy.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(/holds more than 160 bytes\. What was copied has been deleted again\./);
    expect(existsSync(join(root, 'growing-copy'))).toBe(false);
  });

  it('a file in a tree swapped for a link outside while it is copied is never read through the link', async () => {
    const tree = join(root, 'racy');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    for (let file = 0; file < 40; file++) writeFileSync(join(tree, 'sub', `f${file}.txt`), 'plain');
    const racy = join(tree, 'sub', 'racy.txt');
    writeFileSync(racy, 'harmless');
    // In its own process, truly concurrent with the copy: the name flips between a file and a link to the secret.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const [racy, target, spare] = process.argv.slice(1);
        for (;;) { try {
          fs.writeFileSync(spare + '.file', 'harmless'); fs.renameSync(spare + '.file', racy);
          fs.rmSync(spare + '.link', { force: true }); fs.symlinkSync(target, spare + '.link'); fs.renameSync(spare + '.link', racy);
        } catch {} }`,
        racy,
        join(outside, 'secret.txt'),
        // Made beside the tree and renamed in, so the tree never lists a name about to vanish.
        join(root, 'spare'),
      ],
      { stdio: 'ignore' },
    );
    const seen = { copied: 0, skipped: 0 };
    try {
      for (let attempt = 0; attempt < 400 && (attempt < 40 || seen.skipped === 0); attempt++) {
        const destination = `racy-${attempt}`;
        const summary = await guard.copy(await guard.resolve('racy'), await write(destination));
        const copied = join(root, destination, 'sub', 'racy.txt');
        if (existsSync(copied)) {
          expect(readFileSync(copied, 'utf8')).toBe('harmless');
          seen.copied++;
        }
        if (summary.skipped.includes('sub/racy.txt')) seen.skipped++;
        rmSync(join(root, destination), { recursive: true });
      }
    } finally {
      swapper.kill('SIGKILL');
    }
    // The link was met, and skipped; the harmless file, when met, copied as it was.
    expect(seen.skipped).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a tree over the caps, a copy into itself, and a write into a read-only grant', async () => {
    const tree = await guard.resolve('tree');
    await expect(guard.copy(tree, await write('big', { keepLastLink: true }), { maxBytes: 2 })).rejects.toThrow(
      /holds more than 2 bytes\. What was copied has been deleted again\./,
    );
    await expect(guard.copy(tree, await write('deep', { keepLastLink: true }), { maxEntries: 2 })).rejects.toThrow(
      /more than 2 entries; nothing was copied/,
    );
    expect(existsSync(join(root, 'big'))).toBe(false);
    await expect(guard.copy(tree, await write('tree/deep/again', { keepLastLink: true }))).rejects.toThrow(
      /cannot be copied into itself/,
    );
    await expect(write(join(readOnly, 'copy'), { keepLastLink: true })).rejects.toThrow(/read-only/);
  });
});

describe('resolve with refuseLinks', () => {
  it('refuses a path with a link on the way, even one that stays inside', async () => {
    symlinkSync(join(root, 'tree'), join(root, 'tree-link'));
    await expect(guard.resolve('tree-link/a.txt', { refuseLinks: true })).rejects.toThrow(/symbolic link/);
    await expect(guard.resolve('tree/a.txt', { refuseLinks: true })).resolves.toMatchObject({ exists: true });
  });
});

describe('walkDirectory enter', () => {
  it('hands each directory listing over before its entries are visited', async () => {
    const seen: string[] = [];
    await walkDirectory(await guard.resolve('tree'), {
      enter(directory, entries) {
        seen.push(`enter ${directory.relativePath}: ${entries.map((entry) => entry.name).sort()}`);
      },
      visit(entry) {
        seen.push(`visit ${entry.relativePath}`);
        return undefined;
      },
    });
    expect(seen.filter((line) => line.startsWith('enter'))).toEqual(['enter : a.txt,deep', 'enter deep: b.txt']);
    expect(seen.indexOf('enter deep: b.txt')).toBeLessThan(seen.indexOf('visit deep/b.txt'));
    expect(seen.indexOf('visit deep')).toBeLessThan(seen.indexOf('enter deep: b.txt'));
  });
});
