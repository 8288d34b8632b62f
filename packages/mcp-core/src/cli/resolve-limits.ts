import { LocalError } from '../errors/local-error.ts';

/**
 * A server's limits: its defaults, overridden by the options given, each of
 * which must be a whole number of at least 1 (a `config_invalid` error names
 * the one that is not).
 *
 * @example
 * const limits = resolveLimits({ maxRows: 500, timeoutMs: 5000 }, options);
 */
export function resolveLimits<Limits extends { [Key in keyof Limits]: number }>(
  defaults: Limits,
  options: { [Key in keyof Limits]?: unknown },
): Limits {
  const limits = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof Limits & string)[]) {
    const value: unknown = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new LocalError('config_invalid', `${key} must be a whole number of at least 1; got ${String(value)}`);
    }
    limits[key] = value as Limits[keyof Limits & string];
  }
  return limits;
}
