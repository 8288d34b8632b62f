import type * as z from 'zod';
import { zodModule } from './zod-module.ts';

const wholeNumber = { error: 'must be a whole number of at least 1' };

/**
 * A limit among a server's options: a whole number of at least 1, with its
 * default and the line that documents it everywhere (`--help`, README).
 *
 * @example
 * limits: z.strictObject({ maxRows: limitOption(1000, 'Rows a query may return at most') }).prefault({}),
 */
export function limitOption(defaultValue: number, description: string): z.ZodDefault<z.ZodNumber> {
  // The same schema as `.int().min(1).default().meta()`, in half the construction: each chained call builds a
  // whole new schema, and every server builds these at start.
  const z = zodModule();
  return z
    .number(wholeNumber)
    .check(z.int(wholeNumber), z.gte(1, wholeNumber))
    .default(defaultValue)
    .register(z.globalRegistry, { description });
}
