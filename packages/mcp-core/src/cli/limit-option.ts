/** A numeric limit flag: `--max-rows N` with its environment twin and default. */
export interface LimitOptionSpec {
  type: 'number';
  env: string;
  description: string;
  default: number;
}

/**
 * A limit as a bin option, declared in one line.
 *
 * @example
 * maxRows: limitOption('TOOLSHED_SQL_MAX_ROWS', 'Rows a query may return at most', 500),
 */
export function limitOption(env: string, description: string, defaultValue: number): LimitOptionSpec {
  return { type: 'number', env, description, default: defaultValue };
}
