import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Asker } from './complete-create-options.ts';
import { runCreateCli } from './run-create-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'create-toolshed-server-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function create(argv: string[], asker?: Asker) {
  let out = '';
  let error = '';
  const code = await runCreateCli(argv, {
    cwd: work,
    env: {},
    interactive: asker !== undefined,
    out: (text) => {
      out += text;
    },
    error: (text) => {
      error += text;
    },
    ...(asker === undefined ? {} : { asker: () => asker }),
  });
  return { code, out, error };
}

describe('create-toolshed-server', () => {
  it('writes a project from flags alone, asking nothing when not on a terminal', async () => {
    const result = await create([
      'notes',
      '--description',
      'Notes you can search',
      '--github',
      'example/notes',
      '--no-destructive-example',
      '--transports',
      'stdio',
      '--package-manager',
      'pnpm',
    ]);
    expect(result).toMatchObject({ code: 0, error: '' });
    expect(result.out).toContain('Created notes in notes');
    const directory = join(work, 'notes');
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'notes',
      mcpName: 'io.github.example/notes',
      packageManager: expect.stringMatching(/^pnpm@/),
      bin: { notes: './bin/notes.js' },
    });
    expect(existsSync(join(directory, 'src/delete-note-tool.ts'))).toBe(false);
    expect(existsSync(join(directory, '.gitignore'))).toBe(true);
    expect(readFileSync(join(directory, '.github/workflows/ci.yml'), 'utf8')).toContain(
      'pnpm install --frozen-lockfile',
    );
    expect(readFileSync(join(directory, 'src/protocol-contract.test.ts'), 'utf8')).not.toContain("'http'");
    expect(statSync(join(directory, 'bin/notes.js')).mode & 0o111).not.toBe(0);
  });

  it('asks on a terminal for what the flags leave out', async () => {
    const questions: string[] = [];
    const answers: Record<string, string> = {
      'npm package name': '@example/asked',
      'Include the destructive example tool? y/n': 'y',
    };
    const asker: Asker = {
      ask: async (question, fallback) => {
        questions.push(question);
        return answers[question] ?? fallback;
      },
      close: () => {},
    };
    const result = await create(['asked', '--github', 'example/asked'], asker);
    expect(result.code).toBe(0);
    expect(questions).toEqual([
      'npm package name',
      'Description (100 characters at most)',
      'MCP Registry name',
      'Transports: stdio, or stdio,http',
      'Include the destructive example tool? y/n',
      'Package manager: npm or pnpm',
    ]);
    const manifest = JSON.parse(readFileSync(join(work, 'asked', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@example/asked', bin: { asked: './bin/asked.js' } });
    expect(existsSync(join(work, 'asked', 'src/delete-note-tool.ts'))).toBe(true);
  });

  it.each([
    [
      'a non-empty directory',
      () => {
        mkdirSync(join(work, 'taken'));
        writeFileSync(join(work, 'taken', 'notes.txt'), 'mine');
        return ['taken', '--yes'];
      },
      `create-toolshed-server: ${join(work, 'taken')} is not empty: give a new or empty directory\n`,
    ],
    [
      'an invalid npm name',
      () => ['fine', '--name', 'My Server', '--yes'],
      'create-toolshed-server: "My Server" is not a valid npm package name: name can only contain URL-friendly characters\n',
    ],
    [
      'a registry name of another GitHub owner',
      () => ['mine', '--github', 'alice/mine', '--mcp-name', 'io.github.bob/mine', '--yes'],
      'create-toolshed-server: the registry name "io.github.bob/mine" does not match the GitHub owner "alice": use io.github.alice/mine\n',
    ],
    [
      'a description the registry would refuse',
      () => ['long', '--description', 'x'.repeat(101), '--yes'],
      'create-toolshed-server: the description has 101 characters: the MCP Registry takes 1 to 100\n',
    ],
    [
      'no directory off a terminal',
      () => ['--yes'],
      'create-toolshed-server: name a directory: create-toolshed-server <directory>\n',
    ],
    [
      'an unknown flag',
      () => ['x', '--colour'],
      "create-toolshed-server: Unknown option '--colour'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--colour\"\n",
    ],
  ])('refuses %s in one line, writing nothing', async (_case, argv, line) => {
    const result = await create(argv());
    expect(result).toEqual({ code: 2, out: '', error: line });
  });

  it('prints its usage', async () => {
    expect((await create(['--help'])).out).toMatch(/^Usage: create-toolshed-server <directory>/);
  });
});
