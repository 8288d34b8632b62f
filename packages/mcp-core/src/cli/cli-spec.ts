/** One option of a bin: a flag, its environment twin, and how to read it. */
export interface CliOptionSpec {
  type: 'string' | 'number' | 'boolean' | 'list';
  description: string;
  /** The environment variable that sets it when the flag is absent. */
  env?: string;
  /** Shown in --help after the flag, as in `--db PATH`. */
  placeholder?: string;
  default?: string | number | boolean | readonly string[];
  required?: boolean;
}

export interface CliSpec<Options extends Record<string, CliOptionSpec> = Record<string, CliOptionSpec>> {
  /** The bin's name, as typed. */
  name: string;
  version: string;
  /** One line: what the bin serves. */
  summary: string;
  options: Options;
  /**
   * Arguments that are not flags, as in `toolshed-filesystem ~/notes ~/code`;
   * without this, any such argument is an error.
   */
  operands?: { placeholder: string; description: string };
  examples?: readonly string[];
  /** Settings read from the environment alone, such as secrets, listed in --help. */
  environment?: readonly { name: string; description: string }[];
}

type ValueOf<Spec extends CliOptionSpec> = Spec['type'] extends 'number'
  ? number
  : Spec['type'] extends 'boolean'
    ? boolean
    : Spec['type'] extends 'list'
      ? string[]
      : string;

/** The parsed options: required or defaulted ones are always there. */
export type CliValues<Options extends Record<string, CliOptionSpec>> = {
  [Key in keyof Options as Options[Key] extends { required: true } | { default: unknown } ? Key : never]: ValueOf<
    Options[Key]
  >;
} & {
  [Key in keyof Options as Options[Key] extends { required: true } | { default: unknown } ? never : Key]?: ValueOf<
    Options[Key]
  >;
};

/** `maxRows` is spelt `--max-rows` on the command line. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * Declares a bin's options once; parsing, --help and the environment twins
 * all come from it.
 *
 * @example
 * const cli = defineCli({
 *   name: 'toolshed-sql', version: '1.0.0', summary: 'Read-only SQL over SQLite',
 *   options: { db: { type: 'list', env: 'TOOLSHED_SQL_DB', placeholder: 'PATH', required: true, description: 'Database file' } },
 * });
 */
export function defineCli<Options extends Record<string, CliOptionSpec>>(spec: CliSpec<Options>): CliSpec<Options> {
  return spec;
}
