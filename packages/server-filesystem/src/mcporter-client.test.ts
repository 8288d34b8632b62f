import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// mcporter, as its users run it: `mcporter call` with our bin as an ad-hoc stdio server. It shows a result's
// structuredContent when there is one, so that is where the file's text must be.

// The file mcporter's bin runs: its package exports it as `mcporter/cli`.
const mcporterCli = fileURLToPath(import.meta.resolve('mcporter/cli'));
const referenceBin = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json'),
  '..',
  'dist',
  'index.js',
);
const ourBin = fileURLToPath(new URL('./cli.ts', import.meta.url));
// mcporter's engines field asks for Node 24.
const mcporterRuns = Number(process.versions.node.split('.')[0]) >= 24;
if (!mcporterRuns) process.stderr.write(`skipping the mcporter test: it needs Node 24, this is ${process.version}\n`);

const text = '# Reading list\n\n- Piranesi\n- "The Dispossessed" \\ Le Guin\n';
let home: string;
let files: string;

beforeAll(() => {
  // A home and working directory of its own, so no configuration or editor import of this machine is read.
  home = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-mcporter-home-')));
  files = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-mcporter-files-')));
  writeFileSync(join(files, 'reading-list.md'), text);
});

afterAll(() => {
  for (const directory of [home, files]) rmSync(directory, { recursive: true, force: true });
});

/** `mcporter call` against a bin over stdio; its exit code and what it printed as JSON. */
async function mcporterCall(bin: string, tool: string, ...args: string[]): Promise<{ code: number; output: unknown }> {
  const command = [mcporterCli, 'call', '--stdio', process.execPath, '--stdio-arg', bin, '--stdio-arg', files];
  const run = promisify(execFile)(process.execPath, [...command, tool, ...args, '--output', 'json'], {
    cwd: home,
    env: { HOME: home, PATH: process.env.PATH ?? '' },
  });
  const { stdout, code } = await run.then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }),
  );
  return { code, output: JSON.parse(stdout) };
}

describe.skipIf(!mcporterRuns)('mcporter call', () => {
  it('shows the text of a file read, as it does for the reference server', async () => {
    const path = join(files, 'reading-list.md');
    const [ours, reference] = await Promise.all([
      mcporterCall(ourBin, 'read_text_file', `path=${path}`),
      mcporterCall(referenceBin, 'read_text_file', `path=${path}`),
    ]);
    expect(reference).toEqual({ code: 0, output: { content: text } });
    expect(ours).toEqual({
      code: 0,
      output: { content: text, total_lines: 4, first_line: 1, last_line: 4, truncated: false },
    });
  });

  it('refuses an argument write_file does not know, by name, and leaves the file alone', async () => {
    const path = join(files, 'reading-list.md');
    const result = await mcporterCall(ourBin, 'write_file', `path=${path}`, 'content=appended', 'append=true');
    expect(result.code).not.toBe(0);
    expect(result.output).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(JSON.stringify(result.output)).toContain('Unknown key \\"append\\"');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('appends with mode=append, and shows the outcome', async () => {
    const path = join(files, 'log.md');
    writeFileSync(path, 'one\n');
    const result = await mcporterCall(ourBin, 'write_file', `path=${path}`, 'content=two', 'mode=append');
    expect(result).toEqual({
      code: 0,
      output: { content: `Successfully appended to ${path}`, bytes: 3, created: false },
    });
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo');
  });
});
