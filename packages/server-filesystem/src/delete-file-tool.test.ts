import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testClientKinds } from '@toolshed/mcp-core/testing';
import { describe, expect, it } from 'vitest';
import { useToolClient } from './__fixtures__/tool-client.ts';

describe.each(testClientKinds)('delete_file, %s client', (kind) => {
  const setup = useToolClient(kind, () => ({ limits: { maxEntries: 20 } }));
  const at = (...names: string[]) => join(setup.sandbox.allowed, ...names);

  it('deletes a file, and says a missing one does not exist', async () => {
    const result = await setup.client.callTool('delete_file', { path: 'docs/notes.md' });
    expect(result.structuredContent).toEqual({
      content: 'Successfully deleted docs/notes.md',
      files: 1,
      directories: 0,
    });
    expect(existsSync(at('docs', 'notes.md'))).toBe(false);
    const again = await setup.client.callTool('delete_file', { path: 'docs/notes.md' });
    expect(again.isError).toBe(true);
    expect(setup.text(again)).toBe('"docs/notes.md" does not exist.');
  });

  it('deletes a link and leaves what it points to', async () => {
    expect((await setup.client.callTool('delete_file', { path: 'link-to-hello' })).isError).toBeFalsy();
    expect(existsSync(at('link-to-hello'))).toBe(false);
    expect(readFileSync(at('hello.txt'), 'utf8')).toMatch(/^Hello/);
  });

  it('deletes a directory only with recursive: true, empty or not', async () => {
    mkdirSync(at('empty'));
    for (const path of ['empty', 'src']) {
      const refused = await setup.client.callTool('delete_file', { path });
      expect(refused.isError).toBe(true);
      expect(setup.text(refused)).toContain('pass recursive: true');
      expect(existsSync(at(path))).toBe(true);
    }
    symlinkSync(at('hello.txt'), at('src', 'lib', 'to-hello'));
    const result = await setup.client.callTool('delete_file', { path: 'src', recursive: true });
    expect(result.structuredContent).toMatchObject({ files: 3, directories: 2 });
    expect(setup.text(result)).toBe('Successfully deleted src (3 files and 2 directories)');
    expect(existsSync(at('src'))).toBe(false);
    expect(existsSync(at('hello.txt'))).toBe(true);
  });

  it("refuses the grant's root, and a tree over the entries cap before deleting anything", async () => {
    const root = await setup.client.callTool('delete_file', { path: setup.sandbox.allowed, recursive: true });
    expect(setup.text(root)).toContain('is an allowed directory itself and cannot be deleted');
    mkdirSync(at('wide'));
    for (let index = 0; index < 21; index++) writeFileSync(at('wide', `f${index}`), '');
    const wide = await setup.client.callTool('delete_file', { path: 'wide', recursive: true });
    expect(setup.text(wide)).toBe(
      '"wide" holds more than 20 entries; nothing was deleted. Delete its subdirectories one at a time.',
    );
    expect(existsSync(at('wide', 'f20'))).toBe(true);
  });

  it('is annotated destructive, so a host asks before it runs', async () => {
    const tools = (await setup.client.listTools()) as { name: string; annotations?: object }[];
    expect(tools.find((listed) => listed.name === 'delete_file')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
  });
});
