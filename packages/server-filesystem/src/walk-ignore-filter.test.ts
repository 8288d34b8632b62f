import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { testClientKinds } from '@toolshed/mcp-core/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToolClient } from './__fixtures__/tool-client.ts';

// A repository inside the grant: ignore files at its root and below, a .git directory, and files they exclude.
const files: Record<string, string> = {
  'repo/.git/HEAD': 'ref: refs/heads/main\n',
  'repo/.gitignore': 'node_modules/\n*.log\n/build\n!keep.log\n',
  'repo/.ignore': 'secret-notes.md\n',
  'repo/src/app.ts': 'needle in app\n',
  'repo/src/debug.log': 'needle in a log\n',
  'repo/src/keep.log': 'needle kept\n',
  'repo/src/build/out.ts': 'needle in a nested build, which /build does not match\n',
  'repo/build/out.js': 'needle in the root build\n',
  'repo/node_modules/dep/index.js': 'needle in a dependency\n',
  'repo/secret-notes.md': 'needle in notes\n',
  'repo/.github/workflow.yml': 'needle in a dot-directory\n',
  'repo/.env.example': 'needle in a dot-file\n',
  'repo/packages/lib/.gitignore': 'generated.ts\n!debug.log\n',
  'repo/packages/lib/generated.ts': 'needle generated\n',
  'repo/packages/lib/debug.log': 'needle re-included below\n',
  'repo/packages/lib/index.ts': 'needle in lib\n',
  'repo/packages/other/generated.ts': 'needle not generated here\n',
};

const visible = [
  'repo/.env.example',
  'repo/packages/lib/debug.log',
  'repo/packages/lib/index.ts',
  'repo/packages/other/generated.ts',
  'repo/src/app.ts',
  'repo/src/build/out.ts',
  'repo/src/keep.log',
];

describe.each(testClientKinds)('walks that follow .gitignore, %s client', (kind) => {
  const setup = useToolClient(kind);
  const at = (path: string) => join(setup.sandbox.allowed, path);
  const relative = (paths: string[]) => paths.map((path) => path.slice(setup.sandbox.allowed.length + 1)).sort();

  beforeEach(() => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), text);
    }
  });

  const searchFiles = async (args: Record<string, unknown>) => {
    const result = await setup.client.callTool('search_files', { pattern: '**', ...args });
    return relative(setup.text(result).split('\n')).filter((path) => path in files);
  };

  const contentMatches = async (args: Record<string, unknown>) => {
    const result = await setup.client.callTool('search_file_contents', { pattern: 'needle', ...args });
    const matches = (result.structuredContent as { matches: { path: string }[] }).matches;
    return relative(matches.map((match) => match.path));
  };

  it('search_files and search_file_contents skip what the ignore files exclude, nested ones relative to their directory', async () => {
    const ignoreFiles = ['repo/.gitignore', 'repo/.ignore', 'repo/packages/lib/.gitignore'];
    expect(await searchFiles({ path: 'repo' })).toEqual([...visible, ...ignoreFiles].sort());
    expect(await contentMatches({ path: 'repo' })).toEqual(visible);
  });

  it('includeIgnored: true walks everything', async () => {
    const everything = Object.keys(files).sort();
    expect(await searchFiles({ path: 'repo', includeIgnored: true })).toEqual(everything);
    expect(await contentMatches({ path: 'repo', includeIgnored: true })).toEqual(
      everything.filter((path) => files[path]?.includes('needle')),
    );
  });

  it('directory_tree leaves out ignored entries and dot-directories', async () => {
    const result = await setup.client.callTool('directory_tree', { path: 'repo' });
    const names = (nodes: { name: string; children?: unknown[] }[], prefix = ''): string[] =>
      nodes.flatMap((node) => [
        `${prefix}${node.name}`,
        ...names((node.children ?? []) as { name: string }[], `${prefix}${node.name}/`),
      ]);
    const tree = names(JSON.parse(setup.text(result)));
    expect(tree).not.toContain('.git');
    expect(tree).not.toContain('node_modules');
    expect(tree).not.toContain('build');
    expect(tree).toContain('src/build');
    expect(tree).toContain('.gitignore');
    const everything = await setup.client.callTool('directory_tree', { path: 'repo', includeIgnored: true });
    expect(names(JSON.parse(setup.text(everything)))).toEqual(expect.arrayContaining(['.git', 'node_modules']));
  });

  it('rules above the start apply below it, up to the repository root', async () => {
    expect(await searchFiles({ path: 'repo/src' })).toEqual([
      'repo/src/app.ts',
      'repo/src/build/out.ts',
      'repo/src/keep.log',
    ]);
    expect(await contentMatches({ path: 'repo/packages' })).toEqual([
      'repo/packages/lib/debug.log',
      'repo/packages/lib/index.ts',
      'repo/packages/other/generated.ts',
    ]);
  });

  it('a directory named as the start is walked even when ignored', async () => {
    expect(await searchFiles({ path: 'repo/node_modules' })).toEqual(['repo/node_modules/dep/index.js']);
    expect(await contentMatches({ path: 'repo/.github' })).toEqual(['repo/.github/workflow.yml']);
  });
});

describe('ignore files of name patterns only', () => {
  const setup = useToolClient('v2-modern');
  const at = (path: string) => join(setup.sandbox.allowed, path);

  it('decide by name at any depth, and a nearer file still overrides a farther one', async () => {
    for (const [path, text] of Object.entries({
      'names/.gitignore': '*.tmp\ncache/\n!keep.tmp\n',
      'names/a/b/c/drop.tmp': '',
      'names/a/b/c/keep.tmp': '',
      'names/a/b/cache/x.txt': '',
      'names/a/b/c/d.txt': '',
      'names/a/.gitignore': '!drop.tmp\n',
      'names/z/drop.tmp': '',
    })) {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), text);
    }
    const result = await setup.client.callTool('search_files', { path: 'names', pattern: '**/*.*' });
    const found = setup
      .text(result)
      .split('\n')
      .map((path) => path.slice(at('names').length + 1))
      .sort();
    expect(found).toEqual(['.gitignore', 'a/.gitignore', 'a/b/c/d.txt', 'a/b/c/drop.tmp', 'a/b/c/keep.tmp']);
  });
});
