import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testClientKinds } from '@toolshed/mcp-core/testing';
import { describe, expect, it } from 'vitest';
import { useToolClient } from './__fixtures__/tool-client.ts';

describe.each(testClientKinds)('write_file with mode: "append", %s client', (kind) => {
  const setup = useToolClient(kind, () => ({ limits: { maxFileBytes: 64 } }));
  const at = (...names: string[]) => join(setup.sandbox.allowed, ...names);
  const append = (path: string, content: string) =>
    setup.client.callTool('write_file', { path, content, mode: 'append' });

  it('makes a missing file, then adds to its end, keeping its mode', async () => {
    expect((await append('log.txt', 'one\n')).structuredContent).toEqual({
      content: 'Successfully appended to log.txt',
      bytes: 4,
      created: true,
    });
    chmodSync(at('log.txt'), 0o600);
    expect((await append('log.txt', 'two\n')).structuredContent).toMatchObject({ bytes: 4, created: false });
    expect(readFileSync(at('log.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(statSync(at('log.txt')).mode & 0o777).toBe(0o600);
  });

  it('refuses an append that would take the file past --max-file-bytes, and leaves it as it was', async () => {
    writeFileSync(at('full.txt'), 'x'.repeat(60));
    const result = await append('full.txt', 'y'.repeat(5));
    expect(result.isError).toBe(true);
    expect(setup.text(result)).toBe(
      '"full.txt" would be 65 bytes after the append; files over 64 bytes are not written.',
    );
    expect(readFileSync(at('full.txt'), 'utf8')).toBe('x'.repeat(60));
  });

  it('replaces by default, as before', async () => {
    writeFileSync(at('replace.txt'), 'old');
    await setup.client.callTool('write_file', { path: 'replace.txt', content: 'new' });
    expect(readFileSync(at('replace.txt'), 'utf8')).toBe('new');
  });

  it('is not annotated idempotent: an append repeated appends twice', async () => {
    const tools = (await setup.client.listTools()) as {
      name: string;
      annotations?: object;
      inputSchema: { properties: Record<string, unknown> };
    }[];
    const tool = tools.find((listed) => listed.name === 'write_file');
    expect(tool?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(tool?.inputSchema.properties.mode).toEqual({
      default: 'replace',
      type: 'string',
      enum: ['replace', 'append'],
    });
  });
});
