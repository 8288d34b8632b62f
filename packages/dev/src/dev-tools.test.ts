import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dependencyBin } from './dependency-bin.ts';
import * as dev from './index.ts';

const fixture = new URL('./__fixtures__/notes-server/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'toolshed-dev-test-'));
afterAll(() => execFileSync('rm', ['-rf', work]));

/** A copy of the fixture project to write into. */
function project(): string {
  const root = mkdtempSync(join(work, 'project-'));
  cpSync(fixture, root, { recursive: true });
  // The copy resolves mcp-core and zod from this package, as the fixture does.
  cpSync(join(fixture, '..', '..', '..', 'node_modules'), join(root, 'node_modules'), {
    recursive: true,
    dereference: false,
    verbatimSymlinks: true,
  });
  return root;
}

describe('@toolshed/dev', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(dev).sort()).toEqual([
      'buildBundles',
      'buildMcpbBundle',
      'bundleLauncherPath',
      'bundledPackageDirectory',
      'inMemoryCallScript',
      'loadServerCli',
      'mcpbManifest',
      'readPackageManifest',
      'readProjectConfig',
      'registryDescriptionLimit',
      'runDevCli',
      'runPackCheck',
      'serverJson',
      'serverJsonProblems',
      'serverJsonSchemaUrl',
      'writeOptionsTables',
      'writeServerJsonFiles',
    ]);
  });

  it('reads a one-server project from package.json and writes a server.json the registry schema takes', async () => {
    const { servers } = dev.readProjectConfig(fixture);
    expect(servers).toEqual([
      {
        directory: '.',
        displayName: 'Notes',
        description: 'Notes you can search',
        cli: ['src/notes-cli.ts', 'notesCli'],
      },
    ]);
    const entry = JSON.parse(await dev.serverJson(fixture, servers[0] as dev.ServerPackage));
    expect(entry.repository).toEqual({ url: 'https://github.com/example/notes-server', source: 'github' });
    expect(entry.packages[0].environmentVariables).toEqual([
      { name: 'NOTES_DIRECTORY', description: 'Where the notes are', isRequired: true },
      { name: 'NOTES_MAX_RESULTS', description: 'Notes one search returns at most', default: '20' },
      { name: 'NOTES_API_TOKEN', description: 'A token for the sync service', isSecret: true },
    ]);
    expect(dev.serverJsonProblems(entry, dev.readPackageManifest(fixture))).toEqual([]);
    expect(
      dev.serverJsonProblems({ ...entry, name: 'io.github.example/other' }, dev.readPackageManifest(fixture)),
    ).toEqual(['server.json says io.github.example/other@1.2.3 (notes-server@1.2.3)']);
  });

  it('refuses a registry description over 100 characters in one line', () => {
    const root = mkdtempSync(join(work, 'long-'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({
        toolshed: { server: { displayName: 'Long', description: 'x'.repeat(101), cli: ['a.ts', 'b'] } },
      }),
    );
    expect(() => dev.readProjectConfig(root)).toThrow(
      'package.json "toolshed": the description of . has 101 characters; the MCP Registry takes 100',
    );
  });

  it('checks, then writes, server.json and the README options table through the bin commands', async () => {
    const root = project();
    expect(await dev.runDevCli(['server-json', '--check'], root)).toBe(1);
    expect(await dev.runDevCli(['server-json'], root)).toBe(0);
    expect(await dev.runDevCli(['server-json', '--check'], root)).toBe(0);
    expect(await dev.runDevCli(['options-table', '--check'], root)).toBe(1);
    expect(await dev.runDevCli(['options-table'], root)).toBe(0);
    expect(await dev.runDevCli(['options-table', '--check'], root)).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/\| `--max-results N` +\| `NOTES_MAX_RESULTS`/);
  });

  it('writes a bundle manifest the official mcpb tool validates, its author from package.json', async () => {
    const [server] = dev.readProjectConfig(fixture).servers;
    const cli = await dev.loadServerCli(fixture, server as dev.ServerPackage);
    const manifest = dev.mcpbManifest(
      server as dev.ServerPackage,
      dev.readPackageManifest(fixture),
      cli as dev.ServerCliShape,
    );
    expect(manifest.author).toEqual({ name: 'Example Ltd', url: 'https://github.com/example/notes-server' });
    expect(manifest.user_config).toMatchObject({
      directory: { type: 'directory', required: true },
      max_results: { type: 'number', default: 20 },
      api_token: { type: 'string', sensitive: true, default: '' },
    });
    const staging = mkdtempSync(join(work, 'bundle-'));
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest));
    execFileSync(process.execPath, [
      dependencyBin('@anthropic-ai/mcpb', 'mcpb'),
      'validate',
      join(staging, 'manifest.json'),
    ]);
  });

  it('starts a bundle with native addons through its launcher on macOS and Linux, and with node on Windows', async () => {
    const [server] = dev.readProjectConfig(fixture).servers;
    const cli = await dev.loadServerCli(fixture, server as dev.ServerPackage);
    const manifest = dev.mcpbManifest(
      server as dev.ServerPackage,
      dev.readPackageManifest(fixture),
      cli as dev.ServerCliShape,
      {
        nativeAddons: true,
      },
    );
    const entry = `\${__dirname}/server/node_modules/notes-server/bin/notes-server.js`;
    expect((manifest.server as { mcp_config: unknown }).mcp_config).toMatchObject({
      command: 'sh',
      args: [`\${__dirname}/server/start-server.sh`, entry],
      platform_overrides: { win32: { command: 'node', args: [entry] } },
    });
    const staging = mkdtempSync(join(work, 'native-'));
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest));
    execFileSync(process.execPath, [
      dependencyBin('@anthropic-ai/mcpb', 'mcpb'),
      'validate',
      join(staging, 'manifest.json'),
    ]);
    // The launcher finds a Node and passes every argument through.
    const launcher = new URL('../launcher/start-server.sh', import.meta.url).pathname;
    expect(
      execFileSync('sh', [launcher, '-e', 'console.log(process.argv.slice(1).join(","))', 'a b', 'c'], {
        encoding: 'utf8',
      }),
    ).toBe('a b,c\n');
  });
});
