import { LocalError } from '../errors/local-error.ts';
import { closestName } from '../options/closest-name.ts';
import { type CliOptionSpec, type CliSpec, type CliValues, flagName } from './cli-spec.ts';
import { environmentValue, isUnfilledSetting } from './environment-value.ts';

// Taken with getBuiltinModule: imported as an ES module, node:util builds a facade of every export at start.
const { parseArgs } = process.getBuiltinModule('node:util');

export type CliCommand<Options extends Record<string, CliOptionSpec>> =
  | { kind: 'help' }
  | { kind: 'version' }
  /** `operands` are the non-flag arguments, present when the spec declares them. */
  | { kind: 'serve'; options: CliValues<Options>; operands?: string[] };

function configError(message: string): LocalError {
  return new LocalError('config_invalid', message);
}

function convert(key: string, option: CliOptionSpec, raw: string, source: string): string | number | boolean {
  if (option.type === 'number') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw configError(`${source} must be a number; got "${raw}"`);
    return value;
  }
  if (option.type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw configError(`${source} must be true or false; got "${raw}"`);
  }
  if (raw === '') throw configError(`${source} must not be empty (${flagName(key)})`);
  return raw;
}

/**
 * Reads flags first, then their environment twins, then defaults. Fails with
 * one clear `config_invalid` error naming the flag and the variable to set.
 */
export function parseCliOptions<Options extends Record<string, CliOptionSpec>>(
  spec: CliSpec<Options>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliCommand<Options> {
  const parseOptions: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {
    help: { type: 'boolean' },
    version: { type: 'boolean' },
  };
  for (const [key, option] of Object.entries(spec.options)) {
    parseOptions[flagName(key).slice(2)] = {
      type: option.type === 'boolean' ? 'boolean' : 'string',
      ...(option.type === 'list' ? { multiple: true } : {}),
    };
  }
  let parsed: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let operands: string[];
  try {
    const result = parseArgs({
      args: [...argv],
      options: parseOptions,
      strict: true,
      allowPositionals: spec.operands !== undefined,
    });
    parsed = result.values;
    operands = result.positionals.filter((operand) => !isUnfilledSetting(operand));
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    const unknown = /^Unknown option '--([^']+)'/.exec(message)?.[1];
    const suggestion = unknown === undefined ? undefined : closestName(unknown, Object.keys(parseOptions));
    const hint = suggestion === undefined ? 'see --help' : `did you mean --${suggestion}? See --help`;
    throw configError(`${message.replace(/\. To specify a positional argument.*$/, '')} (${hint})`);
  }
  if (parsed.help === true) return { kind: 'help' };
  if (parsed.version === true) return { kind: 'version' };

  const values: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(spec.options)) {
    const flag = flagName(key);
    const fromFlag = parsed[flag.slice(2)];
    const fromEnv = option.env === undefined ? undefined : environmentValue(env, option.env);
    if (fromFlag !== undefined) {
      values[key] = Array.isArray(fromFlag)
        ? fromFlag.map((raw) => convert(key, option, String(raw), flag))
        : typeof fromFlag === 'boolean'
          ? fromFlag
          : convert(key, option, fromFlag, flag);
    } else if (fromEnv !== undefined) {
      values[key] =
        option.type === 'list'
          ? fromEnv.split(',').map((raw) => convert(key, option, raw.trim(), option.env as string))
          : convert(key, option, fromEnv, option.env as string);
    } else if (option.default !== undefined) {
      values[key] = Array.isArray(option.default) ? [...option.default] : option.default;
    } else if (option.required) {
      const twin = option.env === undefined ? '' : ` or set ${option.env}`;
      throw configError(`${flag} is required: pass ${flag} ${option.placeholder ?? 'VALUE'}${twin}`);
    }
  }
  const options = values as CliValues<Options>;
  return spec.operands === undefined ? { kind: 'serve', options } : { kind: 'serve', options, operands };
}
