import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { limitOption } from '../options/limit-option.ts';
import { formatCliHelp } from './format-cli-help.ts';
import { formatOptionsTable, optionsTableMarkers, withOptionsTable } from './format-options-table.ts';
import { httpCliOptions } from './http-cli-options.ts';
import { parseCliOptions } from './parse-cli-options.ts';
import { defineServerCli, serverOptionsFromCli } from './server-cli.ts';

const options = z.strictObject({
  databases: z.union([z.string(), z.record(z.string(), z.string())]).meta({
    description: 'Database files',
    flag: 'db',
    placeholder: 'PATH|NAME=PATH',
  }),
  units: z.enum(['metric', 'imperial']).default('metric').meta({ description: 'Units' }),
  readOnly: z.boolean().default(false).meta({ description: 'Refuse writes' }),
  apiKey: z.string().optional().meta({ description: 'The API key', flag: false, env: 'TEST_API_KEY' }),
  log: z
    .custom<() => void>((value) => typeof value === 'function')
    .optional()
    .meta({ description: 'Log callback' }),
  smtp: z
    .strictObject({
      host: z.string().meta({ description: 'SMTP host' }),
      port: z.number().optional().meta({ description: 'SMTP port', placeholder: 'PORT' }),
    })
    .optional(),
  limits: z
    .strictObject({
      maxRows: limitOption(1000, 'Rows a query may return at most'),
      timeoutMs: limitOption(5000, 'Milliseconds a statement may run'),
    })
    .prefault({})
    .meta({ flagPrefix: '' }),
});

const cli = defineServerCli({
  name: 'toolshed-test',
  version: '1.2.3',
  summary: 'A server for tests',
  options,
  envPrefix: 'TEST',
  readers: {
    databases: {
      type: 'list',
      read: (value) => Object.fromEntries((value as string[]).map((entry) => entry.split('='))),
    },
  },
  examples: ['toolshed-test --db a=./a.db'],
});

function optionsFrom(argv: string[], env: Record<string, string> = {}) {
  const command = parseCliOptions(cli.spec, argv, env);
  if (command.kind !== 'serve') throw new Error(command.kind);
  return serverOptionsFromCli(cli, command.options, command.operands ?? [], env);
}

describe('defineServerCli', () => {
  it('derives flags and environment twins from the schema: groups prefix theirs, limits none', () => {
    expect(cli.fields.map((field) => [field.path.join('.'), field.flag, field.env])).toEqual([
      ['databases', 'db', 'TEST_DB'],
      ['units', 'units', 'TEST_UNITS'],
      ['readOnly', 'read-only', 'TEST_READ_ONLY'],
      ['apiKey', undefined, 'TEST_API_KEY'],
      ['log', undefined, undefined],
      ['smtp.host', 'smtp-host', 'TEST_SMTP_HOST'],
      ['smtp.port', 'smtp-port', 'TEST_SMTP_PORT'],
      ['limits.maxRows', 'max-rows', 'TEST_MAX_ROWS'],
      ['limits.timeoutMs', 'timeout-ms', 'TEST_TIMEOUT_MS'],
    ]);
  });

  it('turns flags, environment and defaults into the checked options', () => {
    expect(
      optionsFrom(['--db', 'a=./a.db', '--max-rows', '50'], { TEST_API_KEY: 'k', TEST_UNITS: 'imperial' }),
    ).toEqual({
      databases: { a: './a.db' },
      units: 'imperial',
      readOnly: false,
      apiKey: 'k',
      limits: { maxRows: 50, timeoutMs: 5000 },
    });
    expect(optionsFrom(['--db', 'a=x', '--smtp-host', 'mail.example.com'])).toMatchObject({
      smtp: { host: 'mail.example.com' },
    });
  });

  it("takes an empty value, or a bundle host's unfilled user_config placeholder, as not set", () => {
    const unfilled = (name: string) => `\${user_config.${name}}`;
    const blank = { TEST_API_KEY: unfilled('api_key'), TEST_UNITS: '', TEST_MAX_ROWS: unfilled('max_rows') };
    expect(optionsFrom(['--db', 'a=./a.db'], blank)).toEqual({
      databases: { a: './a.db' },
      units: 'metric',
      readOnly: false,
      limits: { maxRows: 1000, timeoutMs: 5000 },
    });
    expect(optionsFrom(['--db', 'a=./a.db'], { TEST_API_KEY: `key ${unfilled('x')}` })).toMatchObject({
      apiKey: `key ${unfilled('x')}`,
    });
  });

  it.each([
    [['--db', 'a=x', '--max-rows', '0'], '--max-rows: must be a whole number of at least 1'],
    [['--db', 'a=x', '--units', 'kelvin'], '--units: Invalid option: expected one of "metric"|"imperial"'],
    [['--db', 'a=x', '--smtp-port', '25'], '--smtp-host: '],
    [[], '--db is required: pass --db PATH|NAME=PATH or set TEST_DB'],
  ])('names the flag to fix for %j', (argv, message) => {
    expect(() => optionsFrom(argv)).toThrow(message);
  });

  it('turns a `no-` flag off an option that is on by default, from the flag or its environment twin', () => {
    const negatable = defineServerCli({
      name: 'toolshed-test',
      version: '1.2.3',
      summary: 'A server for tests',
      options: z.strictObject({
        adHoc: z.boolean().default(true).meta({ description: 'Remove the ad-hoc tools', flag: 'no-ad-hoc' }),
      }),
      envPrefix: 'TEST',
    });
    const from = (argv: string[], env: Record<string, string> = {}) => {
      const command = parseCliOptions(negatable.spec, argv, env);
      if (command.kind !== 'serve') throw new Error(command.kind);
      return serverOptionsFromCli(negatable, command.options, [], env);
    };
    expect(from([])).toEqual({ adHoc: true });
    expect(from(['--no-ad-hoc'])).toEqual({ adHoc: false });
    expect(from([], { TEST_NO_AD_HOC: 'true' })).toEqual({ adHoc: false });
    expect(from([], { TEST_NO_AD_HOC: 'false' })).toEqual({ adHoc: true });
    expect(formatCliHelp(negatable.spec)).toMatch(/--no-ad-hoc\s+Remove the ad-hoc tools \(env: TEST_NO_AD_HOC\)/);
  });

  it('documents every flag, and the environment-only settings, in --help', () => {
    const help = formatCliHelp(cli.spec);
    expect(help).toMatch(/--max-rows N\s+Rows a query may return at most \(default: 1000; env: TEST_MAX_ROWS\)/);
    expect(help).toMatch(/--units metric\|imperial\s+Units \(default: "metric"; env: TEST_UNITS\)/);
    expect(help).toMatch(/--http \[HOST:\]PORT/);
    expect(help).toMatch(/Environment:\n {2}TEST_API_KEY\s+The API key/);
    expect(help).not.toContain('Log callback');
  });
});

describe('the README options table', () => {
  it('lists every option, library-only ones included', () => {
    const table = formatOptionsTable(cli).split('\n');
    expect(table).toHaveLength(2 + cli.fields.length + Object.keys(httpCliOptions).length);
    expect(table.find((row) => row.includes('--http-stateless'))).toMatch(
      /^\| `--http-stateless` +\| `TOOLSHED_HTTP_STATELESS` +\| – /,
    );
    expect(table[0]).toMatch(/^\| Flag +\| Environment +\| Option +\| Default +\| Description +\|$/);
    expect(table.find((row) => row.includes('limits.maxRows'))).toMatch(
      /^\| `--max-rows N` +\| `TEST_MAX_ROWS` +\| `limits.maxRows` +\| `1000` +\| Rows a query may return at most +\|$/,
    );
    expect(table.find((row) => row.includes('`log`'))).toMatch(/^\| – +\| – +\| `log` +\| – +\| Log callback +\|$/);
    expect(table.find((row) => row.includes('`databases`'))).toContain('`--db PATH\\|NAME=PATH`');
  });

  it('replaces only what sits between the markers', () => {
    const readme = `# x\n\n${optionsTableMarkers.begin}\nold\n${optionsTableMarkers.end}\n\nmore\n`;
    const updated = withOptionsTable(readme, cli);
    expect(updated).toBe(
      `# x\n\n${optionsTableMarkers.begin}\n${formatOptionsTable(cli)}\n${optionsTableMarkers.end}\n\nmore\n`,
    );
    expect(withOptionsTable(updated ?? '', cli)).toBe(updated);
    expect(withOptionsTable('# no table', cli)).toBeUndefined();
  });
});
