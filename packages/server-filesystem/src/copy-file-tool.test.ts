import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { testClientKinds } from '@toolshed/mcp-core/testing';
import { describe, expect, it } from 'vitest';
import { useToolClient } from './__fixtures__/tool-client.ts';

describe.each(testClientKinds)('copy_file, %s client', (kind) => {
  const setup = useToolClient(kind, () => ({ limits: { maxEntries: 50, maxDepth: 3, maxCopyBytes: 4096 } }));
  const at = (...names: string[]) => join(setup.sandbox.allowed, ...names);

  it('copies a file byte for byte with its mode, and never over an existing one', async () => {
    chmodSync(at('hello.txt'), 0o640);
    const result = await setup.client.callTool('copy_file', { source: 'hello.txt', destination: 'docs/hello.txt' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      content: 'Successfully copied hello.txt to docs/hello.txt',
      files: 1,
      directories: 0,
      bytes: 37,
      skipped: [],
    });
    expect(readFileSync(at('docs', 'hello.txt'), 'utf8')).toBe(readFileSync(at('hello.txt'), 'utf8'));
    expect(statSync(at('docs', 'hello.txt')).mode & 0o7777).toBe(0o640);
    const again = await setup.client.callTool('copy_file', { source: 'src/main.ts', destination: 'docs/hello.txt' });
    expect(again.isError).toBe(true);
    expect(setup.text(again)).toContain('already exists');
    expect(readFileSync(at('docs', 'hello.txt'), 'utf8')).toBe(readFileSync(at('hello.txt'), 'utf8'));
    expect(readdirSync(at('docs')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('copies a tree with the modes of its directories, naming the links it skipped', async () => {
    chmodSync(at('src', 'lib'), 0o750);
    symlinkSync(at('hello.txt'), at('src', 'to-hello'));
    const result = await setup.client.callTool('copy_file', { source: 'src', destination: 'src-copy' });
    expect(result.structuredContent).toMatchObject({ files: 2, directories: 2, bytes: 93, skipped: ['to-hello'] });
    expect(setup.text(result)).toBe('Successfully copied src to src-copy (2 files, 2 directories, 93 bytes)');
    expect((result.content[1] as { text: string }).text).toBe('[Skipped 1 links and special files: to-hello]');
    expect(readFileSync(at('src-copy', 'lib', 'util.ts'), 'utf8')).toBe(
      readFileSync(at('src', 'lib', 'util.ts'), 'utf8'),
    );
    expect(statSync(at('src-copy', 'lib')).mode & 0o7777).toBe(0o750);
    expect(existsSync(at('src-copy', 'to-hello'))).toBe(false);
  });

  it('refuses a tree over the entries or depth caps before copying anything, and leaves nothing of one over the bytes cap', async () => {
    mkdirSync(at('wide'));
    for (let index = 0; index < 51; index++) writeFileSync(at('wide', `f${index}`), '');
    mkdirSync(at('deep', 'a', 'b', 'c'), { recursive: true });
    writeFileSync(at('deep', 'a', 'b', 'c', 'leaf'), '');
    mkdirSync(at('heavy'));
    writeFileSync(at('heavy', 'big'), Buffer.alloc(4097));
    for (const [source, why] of [
      ['wide', 'holds more than 50 entries; nothing was copied'],
      ['deep', 'is more than 3 levels deep; nothing was copied'],
      ['heavy', 'holds more than 4096 bytes. What was copied has been deleted again.'],
      ['heavy/big', 'The file is 4097 bytes; a copy may make at most 4096'],
    ]) {
      const result = await setup.client.callTool('copy_file', { source, destination: 'copy' });
      expect(result.isError, source).toBe(true);
      expect(setup.text(result)).toContain(why);
      expect(existsSync(at('copy')), source).toBe(false);
    }
  });

  it('copies a directory whose files are the same after', async () => {
    const result = await setup.client.callTool('copy_file', { source: 'docs', destination: 'docs-copy' });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(at('docs-copy', 'notes.md'), 'utf8')).toBe('# Notes\n\n- alpha\n- beta\n');
  });
});
