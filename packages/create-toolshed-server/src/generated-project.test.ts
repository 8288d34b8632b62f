/**
 * The generated project, in process against this workspace's packages: its generated parts (the options table,
 * the tool JSON Schemas, server.json) are what its sources derive, so the project's own tests pass from its first
 * run. `vitest -u` rewrites generated/ when mcp-core or the example's schemas change.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { serverJson } from '@toolshed/dev';
import { type McpServer, withOptionsTable } from '@toolshed/mcp-core';
import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreateOptions } from './create-options.ts';
import dependencyVersions from './dependency-versions.json' with { type: 'json' };
import { padMarkdownTable } from './markdown-table.ts';
import { writeProject } from './write-project.ts';

const packageDirectory = new URL('..', import.meta.url).pathname;
const workspace = new URL('../../../', import.meta.url).pathname;
// Inside this package, so the generated sources resolve mcp-core, dev and zod from its node_modules.
mkdirSync(join(packageDirectory, '.scratch'), { recursive: true });
const scratch = mkdtempSync(join(packageDirectory, '.scratch', 'generated-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function generate(name: string, destructiveExample: boolean): string {
  const directory = join(scratch, name);
  writeProject({
    directory,
    packageName: name,
    description: 'Notes you can search',
    githubRepository: `example/${name}`,
    mcpName: `io.github.example/${name}`,
    http: true,
    destructiveExample,
    packageManager: 'npm',
  } satisfies CreateOptions);
  return directory;
}

async function closing<Result>(server: McpServer, use: (server: McpServer) => Promise<Result>): Promise<Result> {
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

describe.each([
  ['with the destructive example', true, '../generated/tool-json-schemas-destructive.txt'],
  ['read-only', false, '../generated/tool-json-schemas.txt'],
] as const)('a generated project, %s', (_label, destructive, schemasFile) => {
  const directory = generate(destructive ? 'notes-destructive' : 'notes-read-only', destructive);

  it('has its tool JSON Schemas as its schema test derives them', async () => {
    const { createServer } = await import(join(directory, 'src/create-server.ts'));
    const module = await closing(createServer(), async (server) => toolJsonSchemaModule(server));
    await expect(module).toMatchFileSnapshot(schemasFile);
  });

  it('has the options table and server.json its options derive, and no placeholder left', async () => {
    const { serverCli } = await import(join(directory, 'src/server-cli.ts'));
    const readme = readFileSync(join(directory, 'README.md'), 'utf8');
    const table = /-->\n([\s\S]*?)\n<!-- options-table:end/.exec(withOptionsTable(readme, serverCli) ?? '')?.[1];
    expect(table).toBe(/-->\n([\s\S]*?)\n<!-- options-table:end/.exec(readme)?.[1]);
    const prefix = serverCli.definition.envPrefix as string;
    await expect(`${padMarkdownTable(table?.replaceAll(`${prefix}_`, '__ENV_PREFIX___') ?? '')}\n`).toMatchFileSnapshot(
      '../generated/options-table.txt',
    );
    const server = {
      directory: '.',
      displayName: 'x',
      description: 'Notes you can search',
      cli: ['src/server-cli.ts', 'serverCli'],
    } as const;
    expect(JSON.parse(await serverJson(directory, server))).toEqual(
      JSON.parse(readFileSync(join(directory, 'server.json'), 'utf8')),
    );
    for (const file of [
      'package.json',
      'README.md',
      'AGENTS.md',
      'src/create-server.ts',
      'scripts/conformance.js',
      '.github/workflows/ci.yml',
    ]) {
      expect(readFileSync(join(directory, file), 'utf8'), file).not.toMatch(/__[A-Z]|#if |#endif/);
    }
  });
});

it('pins the dependency versions this workspace builds and tests with', () => {
  const catalog = Object.fromEntries(
    [...readFileSync(join(workspace, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^ {2}"?([@\w/.-]+)"?: (\S+)$/gm)].map(
      (match) => [match[1], match[2]],
    ),
  );
  const root = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')).devDependencies;
  const conformanceFixture = JSON.parse(readFileSync(join(workspace, 'apps/conformance-fixture/package.json'), 'utf8'));
  // Without a pre-release tag: the pack check bumps versions for its run.
  const version = (directory: string) =>
    `^${JSON.parse(readFileSync(join(workspace, directory, 'package.json'), 'utf8')).version.replace(/-.*$/, '')}`;
  expect(dependencyVersions).toEqual({
    '@toolshed/mcp-core': version('packages/mcp-core'),
    '@toolshed/dev': version('packages/dev'),
    zod: catalog.zod,
    '@biomejs/biome': root['@biomejs/biome'],
    '@changesets/cli': root['@changesets/cli'],
    '@modelcontextprotocol/client': catalog['@modelcontextprotocol/client'],
    '@modelcontextprotocol/conformance': conformanceFixture.devDependencies['@modelcontextprotocol/conformance'],
    '@modelcontextprotocol/sdk': catalog['@modelcontextprotocol/sdk'],
    '@types/node': catalog['@types/node'],
    ajv: catalog.ajv,
    'gpt-tokenizer': root['gpt-tokenizer'],
    rolldown: root.rolldown,
    typescript: catalog.typescript,
    vitest: catalog.vitest,
  });
});
