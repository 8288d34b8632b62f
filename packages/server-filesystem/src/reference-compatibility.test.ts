import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The same client script runs against the reference server and ours, each
// over stdio on an identical tree; every answer must match once the tree's
// location is masked. That holds for structuredContent too: each of ours
// meets the reference's output schema for its tool.

type CallResult = {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};
type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

const referenceBin = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  '..',
  'dist',
  'index.js',
);
const ourBin = fileURLToPath(new URL('./cli.ts', import.meta.url));
const pixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function plainTree(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-compat-')));
  mkdirSync(join(root, 'docs'));
  mkdirSync(join(root, 'src', 'lib'), { recursive: true });
  writeFileSync(join(root, 'hello.txt'), 'Hello, world!\nSecond line\nThird line\n');
  writeFileSync(join(root, 'no-newline.txt'), 'one\ntwo\nthree');
  writeFileSync(join(root, 'docs', 'notes.md'), '# Notes\n\n    indented line\n- alpha\n- beta\n');
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 42;\n');
  writeFileSync(join(root, 'src', 'lib', 'util.ts'), 'export function twice(x: number) {\n  return x * 2;\n}\n');
  writeFileSync(join(root, 'pixel.png'), pixelPng);
  writeFileSync(join(root, 'data.bin'), Buffer.from([0, 1, 2, 3]));
  return root;
}

const script: [string, Record<string, unknown>][] = [
  ['read_text_file', { path: 'hello.txt' }],
  ['read_text_file', { path: 'hello.txt', head: 2 }],
  ['read_text_file', { path: 'no-newline.txt', tail: 2 }],
  ['read_file', { path: 'docs/notes.md' }],
  ['read_text_file', { path: 'missing.txt' }],
  ['read_text_file', { path: '../outside.txt' }],
  ['read_multiple_files', { paths: ['hello.txt', 'docs/notes.md'] }],
  ['read_media_file', { path: 'pixel.png' }],
  ['read_media_file', { path: 'data.bin' }],
  ['list_directory', { path: '.' }],
  ['list_directory_with_sizes', { path: '.' }],
  ['list_directory_with_sizes', { path: '.', sortBy: 'size' }],
  ['directory_tree', { path: '.' }],
  ['directory_tree', { path: '.', excludePatterns: ['lib'] }],
  ['directory_tree', { path: '.', excludePatterns: ['**/*.ts'] }],
  ['search_files', { path: '.', pattern: '**/*.ts' }],
  ['search_files', { path: '.', pattern: '*.txt' }],
  ['search_files', { path: '.', pattern: '**/*', excludePatterns: ['src/**'] }],
  ['search_files', { path: '.', pattern: '*.nothing' }],
  ['get_file_info', { path: 'hello.txt' }],
  ['list_allowed_directories', {}],
  ['write_file', { path: 'new.txt', content: 'fresh\n' }],
  ['read_text_file', { path: 'new.txt' }],
  ['edit_file', { path: 'hello.txt', edits: [{ oldText: 'Second line', newText: 'Line two' }], dryRun: true }],
  ['edit_file', { path: 'docs/notes.md', edits: [{ oldText: 'indented line', newText: 'reindented\n  child' }] }],
  ['edit_file', { path: 'hello.txt', edits: [{ oldText: 'not there', newText: 'x' }] }],
  ['read_text_file', { path: 'docs/notes.md' }],
  ['create_directory', { path: 'made/deep/er' }],
  ['move_file', { source: 'new.txt', destination: 'made/deep/new.txt' }],
  ['move_file', { source: 'hello.txt', destination: 'no-newline.txt' }],
  ['list_directory', { path: 'made/deep' }],
];

const roots: Record<'reference' | 'ours', string> = { reference: '', ours: '' };
const clients: Partial<Record<'reference' | 'ours', Client>> = {};
const tools: Record<'reference' | 'ours', Map<string, Tool>> = { reference: new Map(), ours: new Map() };

beforeAll(async () => {
  for (const [name, bin] of [
    ['reference', referenceBin],
    ['ours', ourBin],
  ] as const) {
    roots[name] = plainTree();
    const client = new Client({ name: 'compat', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, roots[name]],
        stderr: 'ignore',
        env: { TZ: 'UTC' },
      }),
    );
    clients[name] = client;
    tools[name] = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  }
}, 30_000);

afterAll(async () => {
  for (const client of Object.values(clients)) await client?.close();
  for (const root of Object.values(roots)) if (root !== '') rmSync(root, { recursive: true, force: true });
});

/** A text with the tree's location masked; order-free where the file system decides the order. */
function normaliseText(tool: string, text: string, root: string): string {
  let masked = text.replaceAll(root, '<root>');
  if (tool === 'get_file_info') masked = masked.replace(/(created|modified|accessed): .*/g, '$1: <time>');
  if (tool === 'list_directory' || tool === 'search_files') masked = masked.split('\n').sort().join('\n');
  if (tool === 'directory_tree') masked = JSON.stringify(sortTree(JSON.parse(masked)));
  return masked;
}

function masked(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(root, '<root>'));
}

/** The first content block and `structuredContent.content`, normalised; the reference has nothing else. */
function normalise(tool: string, result: CallResult, root: string): unknown {
  if (result.isError === true) return { isError: true };
  // Notes we add in a second block (cuts, skips) are extra; the first block is the contract.
  const [first] = result.content;
  const structured = result.structuredContent?.content;
  return {
    first: first?.text === undefined ? masked(first, root) : { ...first, text: normaliseText(tool, first.text, root) },
    structured: typeof structured === 'string' ? normaliseText(tool, structured, root) : masked(structured, root),
  };
}

function sortTree(nodes: { name: string; children?: unknown[] }[]): unknown {
  return [...nodes]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((node) => (node.children === undefined ? node : { ...node, children: sortTree(node.children as never) }));
}

it('lists every reference tool, with every reference parameter', async () => {
  const reference = (await clients.reference?.listTools())?.tools ?? [];
  const ours = new Map(((await clients.ours?.listTools())?.tools ?? []).map((tool) => [tool.name, tool]));
  expect(reference.length).toBeGreaterThan(12);
  for (const tool of reference) {
    const mine = ours.get(tool.name);
    expect(mine, tool.name).toBeDefined();
    const theirs = Object.keys(tool.inputSchema.properties ?? {});
    expect(Object.keys(mine?.inputSchema.properties ?? {}), tool.name).toEqual(expect.arrayContaining(theirs));
    expect(mine?.inputSchema.required ?? [], tool.name).toEqual(tool.inputSchema.required ?? []);
    expect(mine?.annotations?.readOnlyHint, tool.name).toBe(tool.annotations?.readOnlyHint);
  }
});

it('declares the output schema of every reference tool, with fields of its own beside them', () => {
  expect(tools.reference.size).toBeGreaterThan(12);
  for (const [name, tool] of tools.reference) {
    const theirs = tool.outputSchema as { properties: Record<string, unknown>; required: string[] };
    const mine = tools.ours.get(name)?.outputSchema as typeof theirs | undefined;
    expect(theirs.required, name).toEqual(['content']);
    expect(mine?.properties.content, name).toEqual(theirs.properties.content);
    expect(mine?.required, name).toContain('content');
  }
});

const validator = new AjvJsonSchemaValidator();

/**
 * Problems of a structured result under an output schema, none when it
 * conforms. The reference's schemas close the object (additionalProperties:
 * false) on `content` alone; ours keep their fields beside it and declare
 * them, so with the reference's schema only that closing is lifted.
 */
function schemaProblems(schema: Tool['outputSchema'], structured: unknown, open = false): string | undefined {
  const { additionalProperties, ...rest } = schema as Record<string, unknown>;
  const checked = open ? rest : { additionalProperties, ...rest };
  const outcome = validator.getValidator(checked as never)(structured);
  return outcome.valid ? undefined : outcome.errorMessage;
}

it.each(script.map((step, index) => [index + 1, ...step] as const))(
  'step %i: %s %j answers as the reference does',
  async (_step, tool, args) => {
    const [reference, ours] = await Promise.all([
      clients.reference?.callTool({ name: tool, arguments: args }) as Promise<CallResult>,
      clients.ours?.callTool({ name: tool, arguments: args }) as Promise<CallResult>,
    ]);
    expect(normalise(tool, ours, roots.ours)).toEqual(normalise(tool, reference, roots.reference));
    if (ours.isError === true) return;
    // The same text in the first block and in structuredContent.content (the media block itself for media).
    const first = ours.content[0];
    expect(ours.structuredContent?.content).toEqual(first?.type === 'text' ? first.text : [first]);
    expect(schemaProblems(tools.reference.get(tool)?.outputSchema, ours.structuredContent, true)).toBeUndefined();
    expect(schemaProblems(tools.ours.get(tool)?.outputSchema, ours.structuredContent)).toBeUndefined();
  },
);

// Tools and arguments the reference does not have answer in its shape too: the text in the first block and in
// structuredContent.content, every field declared in the tool's own output schema.
const oursOnly: [string, Record<string, unknown>][] = [
  ['write_file', { path: 'log.txt', content: 'one\n', mode: 'append' }],
  ['copy_file', { source: 'hello.txt', destination: 'hello-copy.txt' }],
  ['copy_file', { source: 'src', destination: 'src-copy' }],
  ['delete_file', { path: 'hello-copy.txt' }],
  ['delete_file', { path: 'src-copy', recursive: true }],
  ['search_files', { path: '.', pattern: '**/*.ts', includeIgnored: true }],
  ['directory_tree', { path: '.', includeIgnored: true }],
  ['search_file_contents', { path: '.', pattern: 'Hello', includeIgnored: true }],
];

it('declares content as the reference does on every tool of ours, new ones included', () => {
  for (const [name, tool] of tools.ours) {
    const schema = tool.outputSchema as { properties: Record<string, unknown>; required: string[] } | undefined;
    const expected =
      name === 'read_media_file' ? tools.reference.get(name)?.outputSchema?.properties?.content : undefined;
    expect(schema?.properties.content, name).toEqual(expected ?? { type: 'string' });
    expect(schema?.required, name).toContain('content');
  }
  expect([...tools.ours.keys()]).toEqual(expect.arrayContaining(['copy_file', 'delete_file']));
});

it.each(oursOnly.map((step, index) => [index + 1, ...step] as const))(
  'ours only, step %i: %s %j answers in the reference shape',
  async (_step, tool, args) => {
    const result = (await clients.ours?.callTool({ name: tool, arguments: args })) as CallResult;
    expect(result.isError, JSON.stringify(result)).toBeUndefined();
    const first = result.content[0];
    expect(first?.type).toBe('text');
    expect(result.structuredContent?.content).toBe(first?.text);
    expect(schemaProblems(tools.ours.get(tool)?.outputSchema, result.structuredContent)).toBeUndefined();
  },
);
