import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { raceUntilBothSeen, startLinkSwapper } from './__fixtures__/link-swapper.ts';
import { createSandbox, type Sandbox, secretText } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

/** A race runs until both outcomes are seen; on a busy machine the swapper may be scheduled rarely. */
const raceTimeoutMs = 120_000;

// copy_file, delete_file and write_file's append, against the attacks the other write paths are held to: links
// and `..` leading out, links swapped in while the server works, read-only grants, a grant's root, FIFOs and
// devices. Refused means an isError, no secret in the answer, and nothing outside touched.

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown };

let sandbox: Sandbox;
let client: Client;
let server: ReturnType<typeof createFilesystemServer>;
let outsideBefore: string[];

/** Device nodes can be made by root only; the rows that need one say so when skipped. */
const canMakeDevices = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'toolshed-mknod-'));
  try {
    execFileSync('mknod', [join(probe, 'null'), 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

async function call(name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

function expectRefused(result: CallResult) {
  const text = JSON.stringify(result);
  expect(result.isError, text).toBe(true);
  expect(text).not.toContain(secretText);
}

/** Everything outside, file by file with its content: what no attack may change. */
function outsideState(): string[] {
  const listing = readdirSync(sandbox.outside, { recursive: true, withFileTypes: true });
  return listing
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return entry.isFile() ? `${path}=${readFileSync(path, 'utf8')}` : path;
    })
    .sort();
}

beforeEach(async () => {
  sandbox = createSandbox();
  mkdirSync(join(sandbox.outside, 'inner'));
  writeFileSync(join(sandbox.outside, 'inner', 'file.txt'), secretText);
  mkdirSync(join(sandbox.allowed, 'reference'));
  writeFileSync(join(sandbox.allowed, 'reference', 'kept.txt'), 'kept');
  server = createFilesystemServer({
    directories: [sandbox.allowed, `${join(sandbox.allowed, 'reference')}:ro`],
    limits: { maxEntries: 100 },
  });
  client = new Client({ name: 'attacker', version: '1' });
  await connectInMemory(server, client);
  outsideBefore = outsideState();
});

afterEach(async () => {
  expect(outsideState()).toEqual(outsideBefore);
  await client.close();
  await server.close();
  sandbox.remove();
});

describe('copy_file', () => {
  it.each([
    ['source with ..', () => ({ source: '../outside/secret.txt', destination: 'stolen.txt' })],
    ['source with .. after a name', () => ({ source: 'docs/../../outside/secret.txt', destination: 'stolen.txt' })],
    ['source absolute outside', () => ({ source: sandbox.secret, destination: 'stolen.txt' })],
    ['source in the prefix sibling', () => ({ source: `${sandbox.sibling}/secret.txt`, destination: 'stolen.txt' })],
    ['source a link to a file outside', () => ({ source: 'link-to-secret', destination: 'stolen.txt' })],
    ['source below a link to a directory outside', () => ({ source: 'link-to-outside/secret.txt', destination: 'x' })],
    ['source a link to a directory outside', () => ({ source: 'link-to-outside', destination: 'stolen' })],
    ['source a link that stays inside', () => ({ source: 'link-to-hello', destination: 'hello-copy.txt' })],
    ['source a dangling link', () => ({ source: 'dangling-out', destination: 'stolen.txt' })],
    ['destination with ..', () => ({ source: 'hello.txt', destination: '../outside/hello.txt' })],
    ['destination with .. after a name', () => ({ source: 'hello.txt', destination: 'docs/../../outside/h.txt' })],
    ['destination absolute outside', () => ({ source: 'hello.txt', destination: join(sandbox.outside, 'h.txt') })],
    ['destination in the prefix sibling', () => ({ source: 'hello.txt', destination: `${sandbox.sibling}/h.txt` })],
    ['destination below a link to outside', () => ({ source: 'hello.txt', destination: 'link-to-outside/h.txt' })],
    ['destination a dangling link leading out', () => ({ source: 'hello.txt', destination: 'dangling-out' })],
    ['destination over an existing file', () => ({ source: 'docs/notes.md', destination: 'hello.txt' })],
    ['destination over a link to a file outside', () => ({ source: 'hello.txt', destination: 'link-to-secret' })],
    ['destination in a read-only grant', () => ({ source: 'hello.txt', destination: 'reference/hello.txt' })],
    ['a directory into itself', () => ({ source: 'src', destination: 'src/lib/again' })],
    ['the grant root into itself', () => ({ source: '.', destination: 'everything' })],
  ])('%s', async (_name, args) => {
    const before = readFileSync(join(sandbox.allowed, 'hello.txt'), 'utf8');
    expectRefused(await call('copy_file', args()));
    expect(readFileSync(join(sandbox.allowed, 'hello.txt'), 'utf8')).toBe(before);
    for (const name of ['stolen.txt', 'stolen', 'x', 'hello-copy.txt', 'everything']) {
      expect(existsSync(join(sandbox.allowed, name)), name).toBe(false);
    }
    expect(existsSync(join(sandbox.allowed, 'reference', 'hello.txt'))).toBe(false);
  });

  it('a FIFO as the source is refused at once instead of hanging the server', async () => {
    execFileSync('mkfifo', [join(sandbox.allowed, 'pipe')]);
    expectRefused(await call('copy_file', { source: 'pipe', destination: 'pipe-copy' }));
    expect(existsSync(join(sandbox.allowed, 'pipe-copy'))).toBe(false);
  });

  it.skipIf(!canMakeDevices)('a device as the source is refused (needs root to make one)', async () => {
    execFileSync('mknod', [join(sandbox.allowed, 'zero'), 'c', '1', '5']);
    expectRefused(await call('copy_file', { source: 'zero', destination: 'zero-copy' }));
    expect(existsSync(join(sandbox.allowed, 'zero-copy'))).toBe(false);
  });

  it('a tree with links, a FIFO and a device skips them all, and copies nothing from outside', async () => {
    const tree = join(sandbox.allowed, 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'plain.txt'), 'plain');
    symlinkSync(sandbox.secret, join(tree, 'to-secret'));
    symlinkSync(sandbox.outside, join(tree, 'to-outside'));
    linkSync(sandbox.secret, join(tree, 'hard-link'));
    execFileSync('mkfifo', [join(tree, 'pipe')]);
    if (canMakeDevices) execFileSync('mknod', [join(tree, 'zero'), 'c', '1', '5']);
    const result = await call('copy_file', { source: 'tree', destination: 'tree-copy' });
    expect(result.isError).toBeUndefined();
    const skipped = (result.structuredContent as { skipped: string[] }).skipped;
    expect(skipped.sort()).toEqual(['pipe', 'to-outside', 'to-secret', ...(canMakeDevices ? ['zero'] : [])].sort());
    expect(readdirSync(join(sandbox.allowed, 'tree-copy')).sort()).toEqual(['hard-link', 'plain.txt']);
    // A hard link is the file itself (see the read rows): its bytes are the sandbox's own, copied inside.
    expect(readFileSync(join(sandbox.allowed, 'tree-copy', 'hard-link'), 'utf8')).toBe(secretText);
  });

  it('a tree in a read-only grant is copied out of it into a writable one', async () => {
    const result = await call('copy_file', { source: 'reference', destination: 'reference-copy' });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(join(sandbox.allowed, 'reference-copy', 'kept.txt'), 'utf8')).toBe('kept');
  });

  it(
    'a source file swapped for a link to the secret while copying never yields the secret',
    async () => {
      const swapper = await startLinkSwapper('file', join(sandbox.allowed, 'racy.txt'), sandbox.secret);
      try {
        const seen = await raceUntilBothSeen(async (index) => {
          const destination = `racy-copy-${index}.txt`;
          const result = await call('copy_file', { source: 'racy.txt', destination });
          expect(JSON.stringify(result)).not.toContain(secretText);
          const copied = join(sandbox.allowed, destination);
          if (existsSync(copied)) expect(readFileSync(copied, 'utf8')).toBe('harmless');
          return result.isError === true ? 'refused' : 'done';
        });
        expect(seen.done).toBeGreaterThan(0);
        expect(seen.refused).toBeGreaterThan(0);
      } finally {
        swapper.stop();
      }
    },
    raceTimeoutMs,
  );

  it(
    'a source directory swapped for a link outside while copying never copies from outside',
    async () => {
      const swapper = await startLinkSwapper('directory', join(sandbox.allowed, 'racy'), sandbox.outside);
      try {
        const seen = await raceUntilBothSeen(async (index) => {
          const destination = `racy-tree-${index}`;
          const result = await call('copy_file', { source: 'racy', destination });
          expect(JSON.stringify(result)).not.toContain(secretText);
          // The swapper writes the harmless file in place: a copy may catch it part written, never anything else.
          const copied = join(sandbox.allowed, destination, 'inner', 'file.txt');
          if (existsSync(copied)) expect('harmless'.startsWith(readFileSync(copied, 'utf8'))).toBe(true);
          expect(existsSync(join(sandbox.allowed, destination, 'secret.txt'))).toBe(false);
          return result.isError === true ? 'refused' : 'done';
        });
        expect(seen.done).toBeGreaterThan(0);
        expect(seen.refused).toBeGreaterThan(0);
      } finally {
        swapper.stop();
      }
    },
    raceTimeoutMs,
  );
});

describe('delete_file', () => {
  it.each([
    ['.. at the start', () => ({ path: '../outside/secret.txt' })],
    ['.. after a name', () => ({ path: 'docs/../../outside/secret.txt' })],
    ['.. to the parent of the grant', () => ({ path: '..', recursive: true })],
    ['absolute outside', () => ({ path: sandbox.secret })],
    ['the prefix sibling', () => ({ path: `${sandbox.sibling}/secret.txt` })],
    ['below a link to a directory outside', () => ({ path: 'link-to-outside/secret.txt' })],
    ['below a link to a directory outside, recursive', () => ({ path: 'link-to-outside/inner', recursive: true })],
    ['the grant root, relative', () => ({ path: '.', recursive: true })],
    ['the grant root, absolute', () => ({ path: sandbox.allowed, recursive: true })],
    ['a read-only grant root', () => ({ path: 'reference', recursive: true })],
    ['a file in a read-only grant', () => ({ path: 'reference/kept.txt' })],
    ['a directory without recursive', () => ({ path: 'docs' })],
  ])('%s is refused', async (_name, args) => {
    expectRefused(await call('delete_file', args()));
    expect(readFileSync(join(sandbox.allowed, 'reference', 'kept.txt'), 'utf8')).toBe('kept');
    expect(existsSync(join(sandbox.allowed, 'docs', 'notes.md'))).toBe(true);
  });

  it('a directory holding a read-only grant is refused, recursive or not', async () => {
    mkdirSync(join(sandbox.allowed, 'holder', 'kept'), { recursive: true });
    writeFileSync(join(sandbox.allowed, 'holder', 'kept', 'file.txt'), 'kept');
    const holding = createFilesystemServer({
      directories: [sandbox.allowed, `${join(sandbox.allowed, 'holder', 'kept')}:ro`],
    });
    const holdingClient = new Client({ name: 'attacker', version: '1' });
    await connectInMemory(holding, holdingClient);
    try {
      const result = (await holdingClient.callTool({
        name: 'delete_file',
        arguments: { path: 'holder', recursive: true },
      })) as CallResult;
      expectRefused(result);
      expect(readFileSync(join(sandbox.allowed, 'holder', 'kept', 'file.txt'), 'utf8')).toBe('kept');
    } finally {
      await holdingClient.close();
      await holding.close();
    }
  });

  it.each([
    ['a link to a directory outside', 'link-to-outside'],
    ['a link to a file outside', 'link-to-secret'],
    ['a dangling link', 'dangling-out'],
  ])('%s: the link goes, never its target', async (_name, path) => {
    const result = await call('delete_file', { path, recursive: true });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ files: 1, directories: 0 });
    expect(existsSync(join(sandbox.allowed, path))).toBe(false);
  });

  it('a recursive delete never follows a link inside the tree', async () => {
    const tree = join(sandbox.allowed, 'tree', 'deeper');
    mkdirSync(tree, { recursive: true });
    symlinkSync(sandbox.outside, join(tree, 'to-outside'));
    symlinkSync(sandbox.secret, join(tree, 'to-secret'));
    const result = await call('delete_file', { path: 'tree', recursive: true });
    expect(result.structuredContent).toMatchObject({ files: 2, directories: 2 });
    expect(existsSync(join(sandbox.allowed, 'tree'))).toBe(false);
  });

  it('a FIFO is deleted as a name, without waiting on it', async () => {
    execFileSync('mkfifo', [join(sandbox.allowed, 'pipe')]);
    expect((await call('delete_file', { path: 'pipe' })).isError).toBeUndefined();
    expect(existsSync(join(sandbox.allowed, 'pipe'))).toBe(false);
  });

  it.skipIf(!canMakeDevices)('a device is deleted as a name, never opened (needs root to make one)', async () => {
    execFileSync('mknod', [join(sandbox.allowed, 'zero'), 'c', '1', '5']);
    expect((await call('delete_file', { path: 'zero' })).isError).toBeUndefined();
    expect(existsSync('/dev/zero')).toBe(true);
  });

  it('a tree over the caps is refused before anything is deleted', async () => {
    const wide = join(sandbox.allowed, 'wide');
    mkdirSync(wide);
    for (let index = 0; index < 101; index++) writeFileSync(join(wide, `f${index}.txt`), 'x');
    const result = await call('delete_file', { path: 'wide', recursive: true });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('nothing was deleted');
    expect(readdirSync(wide)).toHaveLength(101);
  });

  it(
    'a directory swapped for a link outside while deleting never deletes outside',
    async () => {
      const swapper = await startLinkSwapper('directory', join(sandbox.allowed, 'racy'), sandbox.outside);
      try {
        const seen = await raceUntilBothSeen(async () => {
          const result = await call('delete_file', { path: 'racy/inner', recursive: true });
          expect(JSON.stringify(result)).not.toContain(secretText);
          expect(readFileSync(join(sandbox.outside, 'inner', 'file.txt'), 'utf8')).toBe(secretText);
          return result.isError === true ? 'refused' : 'done';
        });
        expect(seen.done).toBeGreaterThan(0);
        expect(seen.refused).toBeGreaterThan(0);
      } finally {
        swapper.stop();
      }
    },
    raceTimeoutMs,
  );
});

describe('write_file with mode: "append"', () => {
  const append = (path: string) => call('write_file', { path, content: 'pwned', mode: 'append' });

  it.each([
    ['.. at the start', () => '../outside/secret.txt'],
    ['.. after a name', () => 'docs/../../outside/secret.txt'],
    ['absolute outside', () => sandbox.secret],
    ['the prefix sibling', () => `${sandbox.sibling}/secret.txt`],
    ['a link to a file outside', () => 'link-to-secret'],
    ['below a link to a directory outside', () => 'link-to-outside/secret.txt'],
    ['a new file below a link to a directory outside', () => 'link-to-outside/new.txt'],
    ['a dangling link leading out', () => 'dangling-out'],
    ['a file in a read-only grant', () => 'reference/kept.txt'],
    ['a directory', () => 'docs'],
  ])('%s is refused', async (_name, path) => {
    expectRefused(await append(path()));
    expect(readFileSync(join(sandbox.allowed, 'reference', 'kept.txt'), 'utf8')).toBe('kept');
    expect(existsSync(join(sandbox.outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(sandbox.outside, 'missing.txt'))).toBe(false);
  });

  it('a hard link to a file outside is refused: an append would change it there too', async () => {
    linkSync(sandbox.secret, join(sandbox.allowed, 'hard-link'));
    expectRefused(await append('hard-link'));
  });

  it('a FIFO is refused at once instead of hanging the server', async () => {
    execFileSync('mkfifo', [join(sandbox.allowed, 'pipe')]);
    expectRefused(await append('pipe'));
  });

  it.skipIf(!canMakeDevices)('a device is refused without being opened (needs root to make one)', async () => {
    execFileSync('mknod', [join(sandbox.allowed, 'null'), 'c', '1', '3']);
    expectRefused(await append('null'));
  });

  it(
    'a file swapped for a link to the secret while appending never changes the secret',
    async () => {
      const swapper = await startLinkSwapper('file', join(sandbox.allowed, 'racy.txt'), sandbox.secret);
      try {
        const seen = await raceUntilBothSeen(async () => {
          const result = await append('racy.txt');
          expect(readFileSync(sandbox.secret, 'utf8')).toBe(secretText);
          return result.isError === true ? 'refused' : 'done';
        });
        expect(seen.done).toBeGreaterThan(0);
        expect(seen.refused).toBeGreaterThan(0);
      } finally {
        swapper.stop();
      }
    },
    raceTimeoutMs,
  );
});
