import * as z from 'zod';

const wholeNumber = { error: 'must be a whole number of at least 1' };

/**
 * A limit among a server's options: a whole number of at least 1, with its
 * default and the line that documents it everywhere (`--help`, README).
 *
 * @example
 * limits: z.strictObject({ maxRows: limitOption(1000, 'Rows a query may return at most') }).prefault({}),
 */
export function limitOption(defaultValue: number, description: string): z.ZodDefault<z.ZodNumber> {
  return z.number(wholeNumber).int(wholeNumber).min(1, wholeNumber).default(defaultValue).meta({ description });
}
