import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineCli } from './cli-spec.ts';
import { formatCliHelp } from './format-cli-help.ts';
import { parseCliOptions } from './parse-cli-options.ts';

const cli = defineCli({
  name: 'toolshed-test',
  version: '9.9.9',
  summary: 'A bin for tests',
  options: {
    db: { type: 'list', env: 'TEST_DB', placeholder: 'PATH', required: true, description: 'Database file' },
    maxRows: { type: 'number', env: 'TEST_MAX_ROWS', default: 500, description: 'Most rows per result' },
    readOnly: { type: 'boolean', env: 'TEST_READ_ONLY', default: true, description: 'Refuse writes' },
    label: { type: 'string', description: 'A label' },
  },
  examples: ['toolshed-test --db data.sqlite'],
});

describe('parseCliOptions', () => {
  it('reads flags, then environment twins, then defaults', () => {
    expect(parseCliOptions(cli, ['--db', 'a.db', '--db', 'b.db', '--max-rows', '10'], {})).toEqual({
      kind: 'serve',
      options: { db: ['a.db', 'b.db'], maxRows: 10, readOnly: true },
    });
    expect(parseCliOptions(cli, [], { TEST_DB: 'x.db, y.db', TEST_MAX_ROWS: '7', TEST_READ_ONLY: 'false' })).toEqual({
      kind: 'serve',
      options: { db: ['x.db', 'y.db'], maxRows: 7, readOnly: false },
    });
    expect(parseCliOptions(cli, ['--db', 'flag.db'], { TEST_DB: 'env.db' })).toMatchObject({
      options: { db: ['flag.db'] },
    });
  });

  it('recognises --help and --version', () => {
    expect(parseCliOptions(cli, ['--help'], {})).toEqual({ kind: 'help' });
    expect(parseCliOptions(cli, ['--version', '--db', 'x'], {})).toEqual({ kind: 'version' });
  });

  it.each([
    [[], {}, '--db is required: pass --db PATH or set TEST_DB'],
    [['--db', 'a', '--max-rows', 'many'], {}, '--max-rows must be a number; got "many"'],
    [['--db', 'a'], { TEST_READ_ONLY: 'perhaps' }, 'TEST_READ_ONLY must be true or false; got "perhaps"'],
    [['--db', 'a', '--bogus'], {}, "Unknown option '--bogus' (see --help)"],
    [['--db', 'a', '--max-rowz', '3'], {}, "Unknown option '--max-rowz' (did you mean --max-rows? See --help)"],
    [['--db', 'a', 'stray'], {}, 'stray'],
  ])('fails %j %j with one clear line', (argv, env, message) => {
    expect(() => parseCliOptions(cli, argv, env)).toThrow(message);
  });
});

describe('operands', () => {
  const withOperands = defineCli({
    ...cli,
    options: { maxRows: cli.options.maxRows },
    operands: { placeholder: 'DIR...', description: 'Directories to serve' },
  });

  it('collects arguments that are not flags when the spec declares them', () => {
    expect(parseCliOptions(withOperands, ['/a', '--max-rows', '3', '/b'], {})).toEqual({
      kind: 'serve',
      options: { maxRows: 3 },
      operands: ['/a', '/b'],
    });
    expect(parseCliOptions(withOperands, [], {})).toEqual({ kind: 'serve', options: { maxRows: 500 }, operands: [] });
  });

  it("leaves out a bundle host's unfilled user_config placeholder", () => {
    const unfilled = `\${user_config.directories}`;
    expect(parseCliOptions(withOperands, [unfilled, '/a'], {})).toMatchObject({ operands: ['/a'] });
  });

  it('shows them in the usage line', () => {
    expect(formatCliHelp(withOperands)).toContain(
      'Usage: toolshed-test [options] DIR...\n  DIR...: Directories to serve',
    );
  });
});

describe('formatCliHelp', () => {
  it('documents every option with its flag, variable and default', () => {
    const help = formatCliHelp(cli);
    expect(help).toContain('toolshed-test 9.9.9 — A bin for tests');
    expect(help).toMatch(/--db PATH\s+Database file \(repeatable; required; env: TEST_DB\)/);
    expect(help).toMatch(/--max-rows N\s+Most rows per result \(default: 500; env: TEST_MAX_ROWS\)/);
    expect(help).toMatch(/--read-only\s+Refuse writes/);
    expect(help).toContain('toolshed-test --db data.sqlite');
  });
});

describe('runCli in a real process', () => {
  const script = join(tmpdir(), `toolshed-cli-${process.pid}.ts`);
  writeFileSync(
    script,
    `import { defineCli, runCli } from ${JSON.stringify(new URL('../index.ts', import.meta.url).pathname)};
const cli = defineCli({ name: 'toolshed-x', version: '1.0.0', summary: 'x', options: {
  db: { type: 'string', env: 'X_DB', required: true, description: 'Database' } } });
await runCli(cli, process.argv.slice(2), process.env, async (options) => { process.stdout.write('serving ' + options.db + '\\n'); });
`,
  );
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

  it('exits 2 with one line on stderr for bad configuration, and no stack trace', () => {
    const result = run([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('toolshed-x: --db is required: pass --db VALUE or set X_DB\n');
    expect(result.stdout).toBe('');
  });

  it('prints help and version, and runs with options', () => {
    expect(run(['--help']).stdout).toContain('Usage: toolshed-x [options]');
    expect(run(['--version']).stdout).toBe('1.0.0\n');
    expect(run([], { X_DB: 'env.db' }).stdout).toBe('serving env.db\n');
  });
});
