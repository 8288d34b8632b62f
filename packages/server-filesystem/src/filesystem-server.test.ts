import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

let sandbox: Sandbox;
let client: Client;
let server: ReturnType<typeof createFilesystemServer>;
let violations: () => unknown[];

beforeAll(async () => {
  sandbox = createSandbox();
  const lines = Array.from({ length: 1000 }, (_, index) => `line ${index + 1} ${'x'.repeat(40)}`);
  writeFileSync(join(sandbox.allowed, 'long.txt'), `${lines.join('\n')}\n`);
  server = createFilesystemServer({
    directories: [sandbox.allowed],
    limits: { maxReadBytes: 4096, maxFileBytes: 64 * 1024, regexTimeoutMs: 300 },
  });
  client = new Client({ name: 'test', version: '1' });
  const { recording } = await connectInMemory(server, client);
  violations = () => recording.specViolations();
});

afterAll(async () => {
  await client.close();
  await server.close();
  sandbox.remove();
});

async function call(
  name: string,
  args: Record<string, unknown>,
  options?: { signal?: AbortSignal },
): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallResult;
}

describe('read_text_file', () => {
  it('reads a range by offset and limit, and says how long the file is', async () => {
    const result = await call('read_text_file', { path: 'long.txt', offset: 10, limit: 3 });
    expect(result.content[0]?.text).toBe([10, 11, 12].map((n) => `line ${n} ${'x'.repeat(40)}`).join('\n'));
    expect(result.structuredContent).toMatchObject({
      total_lines: 1000,
      first_line: 10,
      last_line: 12,
      truncated: false,
    });
    // The reference's shape: the text in the first block and, the same string, in structuredContent.content.
    expect(result.structuredContent?.content).toBe(result.content[0]?.text);
  });

  it('cuts a long read at a line within the byte cap and says where to go on', async () => {
    const result = await call('read_text_file', { path: 'long.txt' });
    const structured = result.structuredContent as { truncated: boolean; next_offset: number; last_line: number };
    const text = result.content[0]?.text ?? '';
    expect(structured.truncated).toBe(true);
    expect(result.structuredContent?.content).toBe(text);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text.endsWith(`line ${structured.last_line} ${'x'.repeat(40)}\n`)).toBe(true);
    expect(structured.next_offset).toBe(structured.last_line + 1);
    expect(result.content[1]?.text).toContain(`offset: ${structured.next_offset}`);
    const next = await call('read_text_file', { path: 'long.txt', offset: structured.next_offset, limit: 1 });
    expect(next.content[0]?.text).toBe(`line ${structured.next_offset} ${'x'.repeat(40)}`);
  });

  it('reads the last lines without reading them all into memory', async () => {
    const result = await call('read_text_file', { path: 'long.txt', tail: 2 });
    expect(result.content[0]?.text).toBe(`line 999 ${'x'.repeat(40)}\nline 1000 ${'x'.repeat(40)}`);
  });

  it('refuses head with tail', async () => {
    const result = await call('read_text_file', { path: 'long.txt', head: 1, tail: 1 });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('Cannot specify both head and tail');
  });

  it('refuses a media file over the cap', async () => {
    writeFileSync(join(sandbox.allowed, 'big.png'), Buffer.alloc(11 * 1024 * 1024));
    const result = await call('read_media_file', { path: 'big.png' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/media files over \d+ bytes are not returned/);
  });
});

describe('writes', () => {
  it('write_file replaces atomically, keeps the mode, and leaves no temporary file', async () => {
    const path = join(sandbox.allowed, 'private.txt');
    writeFileSync(path, 'old');
    chmodSync(path, 0o600);
    const result = await call('write_file', { path: 'private.txt', content: 'new' });
    expect(result.structuredContent).toMatchObject({ created: false, bytes: 3 });
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(sandbox.allowed).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('write_file refuses content over the cap', async () => {
    const result = await call('write_file', { path: 'huge.txt', content: 'x'.repeat(65 * 1024) });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('at most 65536 can be written');
  });

  it('edit_file keeps Windows line ends, and dryRun writes nothing', async () => {
    const path = join(sandbox.allowed, 'windows.txt');
    writeFileSync(path, 'one\r\ntwo\r\nthree\r\n');
    const dry = await call('edit_file', {
      path: 'windows.txt',
      edits: [{ oldText: 'two', newText: 'TWO' }],
      dryRun: true,
    });
    expect(dry.content[0]?.text).toContain('-two\n+TWO');
    expect(dry.structuredContent).toMatchObject({ changed: true, written: false });
    expect(readFileSync(path, 'utf8')).toBe('one\r\ntwo\r\nthree\r\n');
    await call('edit_file', { path: 'windows.txt', edits: [{ oldText: 'two', newText: 'TWO' }] });
    expect(readFileSync(path, 'utf8')).toBe('one\r\nTWO\r\nthree\r\n');
  });

  it('edit_file applies all edits or none', async () => {
    const path = join(sandbox.allowed, 'atomic-edit.txt');
    writeFileSync(path, 'alpha\nbeta\n');
    const result = await call('edit_file', {
      path: 'atomic-edit.txt',
      edits: [
        { oldText: 'alpha', newText: 'ALPHA' },
        { oldText: 'gamma', newText: 'GAMMA' },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('edit 2 of 2; nothing was changed');
    expect(readFileSync(path, 'utf8')).toBe('alpha\nbeta\n');
  });
});

describe('directory_tree and search_files', () => {
  it('cuts a tree at maxEntries and at maxDepth, and says so', async () => {
    const byEntries = await call('directory_tree', { path: '.', maxEntries: 3 });
    expect(byEntries.structuredContent).toMatchObject({ entries: 3, truncated: true, truncated_by: 'max_entries' });
    expect(byEntries.content[1]?.text).toContain('excludePatterns');
    const byDepth = await call('directory_tree', { path: '.', maxDepth: 1 });
    expect(byDepth.structuredContent).toMatchObject({ truncated: true, truncated_by: 'max_depth' });
    const tree = JSON.parse(byDepth.content[0]?.text ?? '') as { name: string; children?: unknown[] }[];
    expect(tree.find((node) => node.name === 'src')?.children).toEqual([]);
  });

  it('search_files caps matches and excludes', async () => {
    const capped = await call('search_files', { path: '.', pattern: '**', maxEntries: 2 });
    expect(capped.structuredContent).toMatchObject({ matches: 2, truncated: true, truncated_by: 'max_entries' });
    const excluded = await call('search_files', { path: '.', pattern: '**/*.ts', excludePatterns: ['src/lib'] });
    expect(excluded.content[0]?.text).toBe(join(sandbox.allowed, 'src', 'main.ts'));
  });

  it('sees a change in a directory whose listing was kept', async () => {
    const settled = join(sandbox.allowed, 'settled');
    mkdirSync(settled);
    writeFileSync(join(settled, 'first.txt'), '1');
    const past = new Date(Date.now() - 60_000);
    utimesSync(settled, past, past);
    expect((await call('directory_tree', { path: 'settled' })).content[0]?.text).not.toContain('second.txt');
    writeFileSync(join(settled, 'second.txt'), '2');
    expect((await call('directory_tree', { path: 'settled' })).content[0]?.text).toContain('second.txt');
  });
});

describe('search_file_contents', () => {
  it('finds literal text with context, by include glob', async () => {
    const result = await call('search_file_contents', {
      path: '.',
      pattern: 'return',
      include: ['*.ts'],
      contextLines: 1,
    });
    expect(result.structuredContent?.matches).toEqual([
      {
        path: join(sandbox.allowed, 'src', 'lib', 'util.ts'),
        line: 2,
        text: '  return x * 2;',
        before: ['export function twice(x: number) {'],
        after: ['}'],
      },
    ]);
    expect(result.structuredContent?.content).toBe(result.content[0]?.text);
    expect(result.content[0]?.text).toBe(
      [
        `${join(sandbox.allowed, 'src', 'lib', 'util.ts')}-1- export function twice(x: number) {`,
        `${join(sandbox.allowed, 'src', 'lib', 'util.ts')}:2:   return x * 2;`,
        `${join(sandbox.allowed, 'src', 'lib', 'util.ts')}-3- }`,
      ].join('\n'),
    );
  });

  it('matches case-insensitively, by regular expression, and skips binary and oversized files', async () => {
    writeFileSync(join(sandbox.allowed, 'binary.dat'), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2]));
    writeFileSync(join(sandbox.allowed, 'oversized.txt'), `TODO ${'y'.repeat(70 * 1024)}`);
    const result = await call('search_file_contents', { path: '.', pattern: 'to+do:', regex: true, ignoreCase: true });
    const structured = result.structuredContent as {
      matches: { path: string; line: number }[];
      files_skipped_binary: number;
      files_skipped_too_large: number;
    };
    expect(structured.matches).toEqual([
      expect.objectContaining({ path: join(sandbox.allowed, 'src', 'main.ts'), line: 2 }),
    ]);
    expect(structured.files_skipped_binary).toBeGreaterThanOrEqual(1);
    expect(structured.files_skipped_too_large).toBeGreaterThanOrEqual(1);
  });

  it('stops a regular expression that backtracks without end, and keeps serving', async () => {
    writeFileSync(join(sandbox.allowed, 'docs', 'redos.txt'), `${'a'.repeat(40)}!`);
    const started = performance.now();
    const result = await call('search_file_contents', { path: 'docs', pattern: '^(a+)+$', regex: true });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('took longer than 300 ms');
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await call('read_text_file', { path: 'hello.txt' })).isError).toBeUndefined();
  });

  it('caps matches and says so', async () => {
    const result = await call('search_file_contents', { path: '.', pattern: 'line', maxResults: 5 });
    expect(result.structuredContent).toMatchObject({ truncated: true });
    expect(result.structuredContent?.matches).toHaveLength(5);
  });

  it('stops when cancelled', async () => {
    const many = join(sandbox.allowed, 'many');
    mkdirSync(many);
    for (let index = 0; index < 3000; index++) writeFileSync(join(many, `f${index}.txt`), `text ${index}\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(
      call('search_file_contents', { path: 'many', pattern: 'nothing-matches' }, { signal: controller.signal }),
    ).rejects.toThrow();
    expect((await call('read_text_file', { path: 'hello.txt' })).isError).toBeUndefined();
  });

  it('rejects an invalid regular expression clearly', async () => {
    const result = await call('search_file_contents', { path: '.', pattern: '(unclosed', regex: true });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('The regular expression is invalid');
  });
});

describe('arguments a tool does not know', () => {
  // Each tool's arguments as they would be valid; the unknown key alone makes the call wrong.
  const validArguments: Record<string, Record<string, unknown>> = {
    read_text_file: { path: 'hello.txt' },
    read_file: { path: 'hello.txt' },
    read_media_file: { path: 'hello.txt' },
    read_multiple_files: { paths: ['hello.txt'] },
    write_file: { path: 'unknown-key.txt', content: 'x' },
    edit_file: { path: 'hello.txt', edits: [{ oldText: 'Hello', newText: 'Hi' }] },
    create_directory: { path: 'unknown-key-directory' },
    list_directory: { path: '.' },
    list_directory_with_sizes: { path: '.' },
    directory_tree: { path: 'docs' },
    move_file: { source: 'hello.txt', destination: 'moved.txt' },
    copy_file: { source: 'hello.txt', destination: 'copied.txt' },
    delete_file: { path: 'hello.txt' },
    search_files: { path: '.', pattern: '*.txt' },
    search_file_contents: { path: '.', pattern: 'Hello' },
    get_file_info: { path: 'hello.txt' },
    list_allowed_directories: {},
    read_document: { path: 'hello.txt' },
  };

  it('has a row for every tool', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(Object.keys(validArguments).sort()).toEqual(names);
  });

  it.each(Object.entries(validArguments))('%s refuses one, naming it, and does nothing', async (name, args) => {
    const before = readdirSync(sandbox.allowed).sort();
    const hello = readFileSync(join(sandbox.allowed, 'hello.txt'), 'utf8');
    const result = await call(name, { ...args, unexpected_flag: true });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(`Invalid arguments for tool "${name}"`);
    expect(result.content[0]?.text).toContain('Unknown key "unexpected_flag"');
    expect(readdirSync(sandbox.allowed).sort()).toEqual(before);
    expect(readFileSync(join(sandbox.allowed, 'hello.txt'), 'utf8')).toBe(hello);
  });

  it('write_file with a mode it does not know is refused, not taken for a replace', async () => {
    const path = join(sandbox.allowed, 'append-me.txt');
    writeFileSync(path, 'first\n');
    const result = await call('write_file', { path: 'append-me.txt', content: 'second\n', mode: 'prepend' });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('mode');
    expect(result.content[0]?.text).toContain('"replace"');
    expect(readFileSync(path, 'utf8')).toBe('first\n');
    const unknown = await call('write_file', { path: 'append-me.txt', content: 'x', append: true });
    expect(unknown.content[0]?.text).toContain(
      '- (the arguments object): Unknown key "append": only "path", "content", "mode" are accepted',
    );
    expect(readFileSync(path, 'utf8')).toBe('first\n');
  });

  it('refuses one inside an edit, and suggests the key a misspelt one meant', async () => {
    const nested = await call('edit_file', {
      path: 'hello.txt',
      edits: [{ oldText: 'Hello', newText: 'Hi', replaceAll: true }],
    });
    expect(nested.isError).toBe(true);
    expect(nested.content[0]?.text).toContain(
      '- edits[0]: Unknown key "replaceAll": only "oldText", "newText" are accepted',
    );
    const misspelt = await call('read_text_file', { path: 'long.txt', offset: 2, limt: 1 });
    expect(misspelt.content[0]?.text).toContain('Unknown key "limt"');
    expect(misspelt.content[0]?.text).toContain('(perhaps "limit" for "limt")');
  });

  it('lists no argument a tool does not take: every input schema is closed', async () => {
    for (const tool of (await client.listTools()).tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
  });
});

it('emits only messages the schema allows', () => {
  expect(violations()).toEqual([]);
});
