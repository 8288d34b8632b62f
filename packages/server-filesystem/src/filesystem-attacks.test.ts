import { execFileSync, spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/document-files.ts';
import { createSandbox, type Sandbox, secretText } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean; structuredContent?: unknown };

let sandbox: Sandbox;
let client: Client;
let server: ReturnType<typeof createFilesystemServer>;

async function call(target: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await target.callTool({ name, arguments: args })) as CallResult;
}

/**
 * Refused, with no secret in the answer, and no directory named in the
 * message other than in the path the caller wrote itself.
 */
function expectRefused(result: CallResult, args: Record<string, unknown> = {}) {
  let text = JSON.stringify(result);
  expect(result.isError, text).toBe(true);
  expect(text).not.toContain(secretText);
  const written = Object.values(args).filter((value) => typeof value === 'string');
  for (const value of written.sort((a, b) => b.length - a.length)) {
    text = text.replaceAll(JSON.stringify(value).slice(1, -1), '');
  }
  expect(text).not.toContain(sandbox.base);
}

beforeAll(async () => {
  sandbox = createSandbox();
  linkSync(sandbox.secret, join(sandbox.allowed, 'hard-link-to-secret'));
  server = createFilesystemServer({ directories: [sandbox.allowed] });
  client = new Client({ name: 'attacker', version: '1' });
  await connectInMemory(server, client);
});

afterAll(async () => {
  await client.close();
  await server.close();
  sandbox.remove();
});

const readEscapes: [string, () => string][] = [
  ['.. at the start', () => '../outside/secret.txt'],
  ['.. after a name', () => 'docs/../../outside/secret.txt'],
  ['.. after ./', () => './../outside/secret.txt'],
  ['.. after ./ inside a name chain', () => 'docs/./../../outside/secret.txt'],
  ['.. many times', () => '../../../../../../../../etc/passwd'],
  ['.. in an absolute path', () => `${sandbox.allowed}/../outside/secret.txt`],
  ['.. deep in an absolute path', () => `${sandbox.allowed}/docs/../../outside/secret.txt`],
  ['.. at the end', () => `${sandbox.allowed}/docs/../..`],
  ['bare ..', () => '..'],
  ['prefix sibling, absolute', () => `${sandbox.sibling}/secret.txt`],
  ['prefix sibling, relative', () => '../allowed_evil/secret.txt'],
  ['prefix sibling, name glued to the allowed path', () => `${sandbox.allowed}_evil/secret.txt`],
  ['absolute path outside', () => sandbox.secret],
  ['system file', () => '/etc/passwd'],
  ['the root directory', () => '/'],
  ['/proc of the server', () => '/proc/self/environ'],
  ['symlinked file pointing out', () => 'link-to-secret'],
  ['file below a symlinked directory pointing out', () => 'link-to-outside/secret.txt'],
  ['symlinked directory pointing out, absolute', () => `${sandbox.allowed}/link-to-outside/secret.txt`],
  ['dangling symlink pointing out', () => 'dangling-out'],
  ['NUL after a name', () => 'hello.txt\0.png'],
  ['NUL before ..', () => 'docs\0/../../outside/secret.txt'],
  ['~ home expansion', () => '~/.ssh/id_rsa'],
  ['bare ~', () => '~'],
  ['fullwidth dots', () => '\uFF0E\uFF0E/outside/secret.txt'],
  ['two-dot leader', () => '\u2025/outside/secret.txt'],
  ['division slash as separator', () => `..\u2215outside\u2215secret.txt`],
  ['decomposed accents on ..', () => '.\u0301./outside/secret.txt'],
  ['very long path', () => `${'a/'.repeat(3000)}secret.txt`],
  ['very long climb', () => `${'../'.repeat(2000)}etc/passwd`],
  ['Windows drive path', () => 'C:\\Windows\\System32\\config\\SAM'],
  ['Windows drive with forward slashes', () => 'C:/Windows/win.ini'],
  ['Windows backslash climb', () => '..\\outside\\secret.txt'],
  ['UNC path', () => '\\\\server\\share\\secret.txt'],
  ['UNC path with forward slashes', () => '//server/share/secret.txt'],
  ['URL instead of a path', () => pathToFileURL(join(sandbox.outside, 'secret.txt')).href],
];

describe('reads that try to leave the sandbox', () => {
  it.each(readEscapes)('%s', async (_name, path) => {
    for (const tool of ['read_text_file', 'read_file', 'read_media_file', 'read_document', 'get_file_info']) {
      expectRefused(await call(client, tool, { path: path() }), { path: path() });
    }
    const multiple = await call(client, 'read_multiple_files', { paths: [path()] });
    expect(JSON.stringify(multiple)).not.toContain(secretText);
  });
});

describe('listings that try to leave the sandbox', () => {
  it.each([
    ['list_directory through a symlinked directory', 'list_directory', { path: 'link-to-outside' }],
    ['list_directory_with_sizes of the parent', 'list_directory_with_sizes', { path: '..' }],
    ['directory_tree of the sibling', 'directory_tree', { path: '../allowed_evil' }],
    ['search_files from a symlinked directory', 'search_files', { path: 'link-to-outside', pattern: '**' }],
    [
      'content search from a symlinked directory',
      'search_file_contents',
      { path: 'link-to-outside', pattern: 'SECRET' },
    ],
    ['content search of a symlinked file', 'search_file_contents', { path: 'link-to-secret', pattern: 'SECRET' }],
  ])('%s', async (_name, tool, args) => {
    expectRefused(await call(client, tool, args), args);
  });

  it('walks do not follow links out, and content search does not read through them', async () => {
    const tree = await call(client, 'directory_tree', { path: '.' });
    expect(tree.isError).toBeUndefined();
    expect(JSON.stringify(tree)).not.toContain('secret.txt');
    const search = await call(client, 'search_file_contents', { path: '.', pattern: 'TOP SECRET' });
    // The hard link is the one way to the text: it is a file of the sandbox (see the hard link rows).
    expect((search.structuredContent as { matches: { path: string }[] }).matches.map((match) => match.path)).toEqual([
      join(sandbox.allowed, 'hard-link-to-secret'),
    ]);
  });
});

describe('writes that try to leave the sandbox', () => {
  const outsideNew = () => join(sandbox.outside, 'new.txt');

  it.each([
    ['write_file with ..', 'write_file', () => ({ path: '../outside/new.txt', content: 'pwned' })],
    ['write_file absolute outside', 'write_file', () => ({ path: outsideNew(), content: 'pwned' })],
    [
      'write_file through a symlinked directory',
      'write_file',
      () => ({ path: 'link-to-outside/new.txt', content: 'pwned' }),
    ],
    ['write_file through a symlinked file', 'write_file', () => ({ path: 'link-to-secret', content: 'pwned' })],
    [
      'edit_file through a symlinked file',
      'edit_file',
      () => ({ path: 'link-to-secret', edits: [{ oldText: 'TOP', newText: 'pwned' }] }),
    ],
    [
      'create_directory through a symlinked directory',
      'create_directory',
      () => ({ path: 'link-to-outside/new/deeper' }),
    ],
    ['create_directory with ..', 'create_directory', () => ({ path: '../outside/new' })],
    ['move_file out of the sandbox', 'move_file', () => ({ source: 'hello.txt', destination: '../outside/hello.txt' })],
    [
      'move_file into a symlinked directory',
      'move_file',
      () => ({ source: 'hello.txt', destination: 'link-to-outside/hello.txt' }),
    ],
    ['move_file from outside in', 'move_file', () => ({ source: sandbox.secret, destination: 'stolen.txt' })],
    [
      'move_file of the allowed directory itself',
      'move_file',
      () => ({ source: sandbox.allowed, destination: 'inside' }),
    ],
    [
      'move_file to the sibling',
      'move_file',
      () => ({ source: 'hello.txt', destination: `${sandbox.sibling}/hello.txt` }),
    ],
  ])('%s', async (_name, tool, args) => {
    expectRefused(await call(client, tool, args()), args());
    expect(readFileSync(sandbox.secret, 'utf8')).toBe(secretText);
    expect(existsSync(outsideNew())).toBe(false);
    expect(existsSync(join(sandbox.outside, 'hello.txt'))).toBe(false);
    expect(existsSync(join(sandbox.outside, 'new'))).toBe(false);
    expect(existsSync(join(sandbox.allowed, 'hello.txt'))).toBe(true);
  });

  it('writing over a dangling link replaces the link and creates nothing outside', async () => {
    const result = await call(client, 'write_file', { path: 'dangling-out', content: 'inside now' });
    expect(result.isError).toBeUndefined();
    expect(existsSync(join(sandbox.outside, 'missing.txt'))).toBe(false);
    expect(readFileSync(join(sandbox.allowed, 'dangling-out'), 'utf8')).toBe('inside now');
  });

  it('writing to a hard link replaces the name here and leaves the file outside unchanged', async () => {
    const result = await call(client, 'write_file', { path: 'hard-link-to-secret', content: 'replaced' });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(sandbox.secret, 'utf8')).toBe(secretText);
    expect(readFileSync(join(sandbox.allowed, 'hard-link-to-secret'), 'utf8')).toBe('replaced');
  });

  it('editing a hard link leaves the file outside unchanged', async () => {
    linkSync(sandbox.secret, join(sandbox.allowed, 'hard-link-2'));
    const result = await call(client, 'edit_file', {
      path: 'hard-link-2',
      edits: [{ oldText: 'TOP', newText: 'NOT' }],
    });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(sandbox.secret, 'utf8')).toBe(secretText);
  });

  it('moving a symlink moves the link, not what it points to', async () => {
    symlinkSync(sandbox.secret, join(sandbox.allowed, 'link-to-move'));
    expect(
      (await call(client, 'move_file', { source: 'link-to-move', destination: 'docs/moved-link' })).isError,
    ).toBeUndefined();
    expect(readFileSync(sandbox.secret, 'utf8')).toBe(secretText);
    expectRefused(await call(client, 'read_text_file', { path: 'docs/moved-link' }));
  });

  it('move refuses to overwrite unless asked', async () => {
    writeFileSync(join(sandbox.allowed, 'a.txt'), 'a');
    writeFileSync(join(sandbox.allowed, 'b.txt'), 'b');
    const refused = await call(client, 'move_file', { source: 'a.txt', destination: 'b.txt' });
    expect(refused.isError).toBe(true);
    expect(readFileSync(join(sandbox.allowed, 'b.txt'), 'utf8')).toBe('b');
    expect(
      (await call(client, 'move_file', { source: 'a.txt', destination: 'b.txt', overwrite: true })).isError,
    ).toBeUndefined();
    expect(readFileSync(join(sandbox.allowed, 'b.txt'), 'utf8')).toBe('a');
  });
});

describe('special files', () => {
  it('a FIFO is refused at once instead of hanging the server', async () => {
    execFileSync('mkfifo', [join(sandbox.allowed, 'pipe')]);
    expectRefused(await call(client, 'read_text_file', { path: 'pipe' }));
  });

  it('a hard link is the file itself: readable, as any file of the sandbox', async () => {
    linkSync(sandbox.secret, join(sandbox.allowed, 'hard-link-3'));
    const result = await call(client, 'read_text_file', { path: 'hard-link-3' });
    expect(result.content[0]?.text).toBe(secretText);
  });
});

describe('documents that try to leave the sandbox', () => {
  const secretPdf = () => join(sandbox.outside, 'secret.pdf');
  beforeAll(() => {
    writeFileSync(secretPdf(), makePdf([[secretText]]));
    symlinkSync(secretPdf(), join(sandbox.allowed, 'link-to-secret.pdf'));
    symlinkSync('/dev/zero', join(sandbox.allowed, 'zero.pdf'));
    execFileSync('mkfifo', [join(sandbox.allowed, 'pipe.pdf')]);
  });

  it.each([
    ['a PDF outside, absolute', () => secretPdf()],
    ['a PDF outside, by ..', () => '../outside/secret.pdf'],
    ['a PDF of the prefix sibling', () => `${sandbox.allowed}_evil/secret.pdf`],
    ['a symlinked PDF pointing out', () => 'link-to-secret.pdf'],
    ['a PDF below a symlinked directory pointing out', () => 'link-to-outside/secret.pdf'],
    ['a link named .pdf to a device', () => 'zero.pdf'],
    ['a FIFO named .pdf, refused at once instead of hanging the server', () => 'pipe.pdf'],
  ])('%s', async (_name, path) => {
    expectRefused(await call(client, 'read_document', { path: path() }), { path: path() });
  });

  it('a device is refused even inside a grant, never read', async () => {
    const devices = createFilesystemServer({ directories: ['/dev:ro'] });
    const devicesClient = new Client({ name: 'devices', version: '1' });
    await connectInMemory(devices, devicesClient);
    try {
      const result = await call(devicesClient, 'read_document', { path: '/dev/zero' });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/not a regular file/);
    } finally {
      await devicesClient.close();
      await devices.close();
    }
  });
});

describe('races: a link swapped in while the server works', () => {
  it('reading a path that flips between a file inside and a link outside never returns the secret', async () => {
    // The swapper runs in its own process, truly concurrent with the server.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
const [racy, secret] = process.argv.slice(1);
const file = racy + '.file', link = racy + '.link';
for (;;) {
  fs.rmSync(file, { force: true }); fs.writeFileSync(file, 'harmless'); fs.renameSync(file, racy);
  fs.rmSync(link, { force: true }); fs.symlinkSync(secret, link); fs.renameSync(link, racy);
}`,
        join(sandbox.allowed, 'racy.txt'),
        sandbox.secret,
      ],
      { stdio: 'ignore' },
    );
    try {
      await expect.poll(() => existsSync(join(sandbox.allowed, 'racy.txt'))).toBe(true);
      const outcomes = { harmless: 0, refused: 0 };
      // At least 400 reads, and on until both states were met: a busy machine may schedule the swapper rarely.
      const bothMet = () => outcomes.harmless > 0 && outcomes.refused > 0;
      for (let attempt = 0; attempt < 20_000 && (attempt < 400 || !bothMet()); attempt++) {
        const result = await call(client, 'read_text_file', { path: 'racy.txt' });
        expect(JSON.stringify(result)).not.toContain(secretText);
        if (result.content[0]?.text === 'harmless') outcomes.harmless++;
        else outcomes.refused++;
      }
      // Both states were met: the race was real, and it never leaked.
      expect(outcomes.harmless).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    } finally {
      swapper.kill('SIGKILL');
    }
  });

  it('a directory that flips to a link outside is never listed or read through', async () => {
    const racyDir = join(sandbox.allowed, 'racy-dir');
    mkdirSync(racyDir);
    writeFileSync(join(racyDir, 'secret.txt'), 'harmless');
    const parked = join(sandbox.allowed, 'parked-dir');
    const link = join(sandbox.allowed, 'racy-link');
    let stop = false;
    const swapper = (async () => {
      let linked = false;
      while (!stop) {
        if (linked) {
          rmSync(racyDir);
          renameSync(parked, racyDir);
        } else {
          renameSync(racyDir, parked);
          symlinkSync(sandbox.outside, link);
          renameSync(link, racyDir);
        }
        linked = !linked;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let attempt = 0; attempt < 150; attempt++) {
      for (const [tool, args] of [
        ['read_text_file', { path: 'racy-dir/secret.txt' }],
        ['list_directory', { path: 'racy-dir' }],
        ['directory_tree', { path: '.' }],
        ['search_file_contents', { path: 'racy-dir', pattern: 'SECRET' }],
      ] as const) {
        const text = JSON.stringify(await call(client, tool, args));
        expect(text).not.toContain(secretText);
        expect(text).not.toContain('missing.txt');
      }
    }
    stop = true;
    await swapper;
  });
});

describe('client roots only narrow', () => {
  async function withRoots(
    roots: string[],
    run: (rootsClient: Client, setRoots: (next: string[]) => Promise<void>) => Promise<void>,
  ) {
    let current = roots;
    const rootsServer = createFilesystemServer({ directories: [sandbox.allowed] });
    const rootsClient = new Client({ name: 'roots', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    rootsClient.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: current.map((uri) => ({ uri })),
    }));
    await connectInMemory(rootsServer, rootsClient);
    try {
      await run(rootsClient, async (next) => {
        current = next;
        await rootsClient.sendRootsListChanged();
      });
    } finally {
      await rootsClient.close();
      await rootsServer.close();
    }
  }

  it.each([
    ['a root at / does not widen to the whole disk', () => ['file:///']],
    ['a root on the outside directory grants nothing', () => [pathToFileURL(sandbox.outside).href]],
    ['a root on the parent does not reach the sibling', () => [pathToFileURL(sandbox.base).href]],
    ['a non-file root grants nothing', () => ['https://example.com/']],
  ])('%s', async (_name, roots) => {
    await withRoots(roots(), async (rootsClient) => {
      for (const path of [sandbox.secret, `${sandbox.sibling}/secret.txt`]) {
        expectRefused(await call(rootsClient, 'read_text_file', { path }), { path });
      }
    });
  });

  it('an empty list narrows nothing (as the reference server takes it), and list_changed then narrows', async () => {
    await withRoots([], async (rootsClient, setRoots) => {
      expect((await call(rootsClient, 'read_text_file', { path: 'hello.txt' })).isError).toBeUndefined();
      await setRoots([pathToFileURL(join(sandbox.allowed, 'docs')).href]);
      const hello = join(sandbox.allowed, 'hello.txt');
      await expect.poll(async () => (await call(rootsClient, 'read_text_file', { path: hello })).isError).toBe(true);
    });
  });

  it("started without directories, it takes the client's roots as its grants, and nothing else", async () => {
    const rootsOnly = createFilesystemServer({ directories: [] });
    const withRootsClient = new Client({ name: 'roots', version: '1' }, { capabilities: { roots: {} } });
    withRootsClient.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(join(sandbox.allowed, 'docs')).href }],
    }));
    const withoutRootsClient = new Client({ name: 'plain', version: '1' });
    await connectInMemory(rootsOnly, withRootsClient);
    await connectInMemory(rootsOnly, withoutRootsClient);
    try {
      expect((await call(withRootsClient, 'read_text_file', { path: 'notes.md' })).isError).toBeUndefined();
      const tools = (await withRootsClient.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('write_file');
      for (const path of [join(sandbox.allowed, 'hello.txt'), sandbox.secret]) {
        expectRefused(await call(withRootsClient, 'read_text_file', { path }), { path });
      }
      const refused = await call(withoutRootsClient, 'list_allowed_directories', {});
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/started without directories, and the client offers no local roots/);
    } finally {
      await withRootsClient.close();
      await withoutRootsClient.close();
      await rootsOnly.close();
    }
  });

  it('a root inside narrows to it, and list_changed re-evaluates', async () => {
    await withRoots([pathToFileURL(join(sandbox.allowed, 'docs')).href], async (rootsClient, setRoots) => {
      expect((await call(rootsClient, 'read_text_file', { path: 'notes.md' })).isError).toBeUndefined();
      const hello = join(sandbox.allowed, 'hello.txt');
      expectRefused(await call(rootsClient, 'read_text_file', { path: hello }), { path: hello });
      await setRoots([pathToFileURL(join(sandbox.allowed, 'src')).href]);
      await expect
        .poll(
          async () =>
            (await call(rootsClient, 'read_text_file', { path: join(sandbox.allowed, 'docs/notes.md') })).isError,
        )
        .toBe(true);
    });
  });
});

describe('read-only grants', () => {
  it('DIR:ro refuses writes there and allows them in a read-write directory', async () => {
    const mixed = createFilesystemServer({
      directories: [`${join(sandbox.allowed, 'docs')}:ro`, join(sandbox.allowed, 'src')],
    });
    const mixedClient = new Client({ name: 'ro', version: '1' });
    await connectInMemory(mixed, mixedClient);
    const write = { path: join(sandbox.allowed, 'docs/x.md'), content: 'x' };
    expectRefused(await call(mixedClient, 'write_file', write), write);
    const move = { source: join(sandbox.allowed, 'docs/notes.md'), destination: join(sandbox.allowed, 'src/notes.md') };
    expectRefused(await call(mixedClient, 'move_file', move), move);
    expect(existsSync(join(sandbox.allowed, 'docs/x.md'))).toBe(false);
    expect(
      (await call(mixedClient, 'write_file', { path: join(sandbox.allowed, 'src/x.ts'), content: 'x' })).isError,
    ).toBeUndefined();
    await mixedClient.close();
    await mixed.close();
  });

  it.each([
    ['every directory :ro', { directories: [] as string[], ro: true, readOnly: false }],
    ['--read-only', { directories: [] as string[], ro: false, readOnly: true }],
  ])('%s: write tools are not even listed', async (_name, setup) => {
    const readOnly = createFilesystemServer({
      directories: [setup.ro ? `${sandbox.allowed}:ro` : sandbox.allowed],
      readOnly: setup.readOnly,
    });
    const readOnlyClient = new Client({ name: 'ro', version: '1' });
    await connectInMemory(readOnly, readOnlyClient);
    const names = (await readOnlyClient.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('write_file');
    expect(names).not.toContain('edit_file');
    expect(names).not.toContain('move_file');
    expect(names).not.toContain('create_directory');
    expect(names).not.toContain('copy_file');
    expect(names).not.toContain('delete_file');
    expect(names).toContain('read_text_file');
    await expect(call(readOnlyClient, 'write_file', { path: 'x.txt', content: 'x' })).rejects.toThrow(/Unknown tool/);
    await readOnlyClient.close();
    await readOnly.close();
  });
});
