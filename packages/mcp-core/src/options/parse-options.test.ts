import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { closestName } from './closest-name.ts';
import { parseOptions } from './parse-options.ts';

const schema = z.strictObject({
  databases: z.string(),
  directories: z
    .array(z.union([z.string(), z.strictObject({ path: z.string(), access: z.string().optional() })]))
    .optional(),
  limits: z
    .strictObject({ maxRows: z.number().int().positive().optional(), timeoutMs: z.number().optional() })
    .optional(),
});

describe('parseOptions', () => {
  it('returns valid options', () => {
    expect(parseOptions(schema, { databases: 'a.db', limits: { maxRows: 5 } }, 'sql options')).toEqual({
      databases: 'a.db',
      limits: { maxRows: 5 },
    });
  });

  it.each([
    [
      { databases: 'a.db', limits: { maxRowz: 5 } },
      /unknown option "maxRowz" at limits\.maxRowz; did you mean "maxRows"\?/,
    ],
    [{ databse: 'a.db', databases: 'b.db' }, /unknown option "databse" at databse; did you mean "databases"\?/],
    [
      { databases: 'a.db', directories: ['x', { path: 'y', acess: 'read' }] },
      /unknown option "acess" at directories\.1\.acess; did you mean "access"\?/,
    ],
    [{ databases: 'a.db', colour: 'red' }, /unknown option "colour" at colour$/],
    [{ databases: 'a.db', maxRowz: 5 }, /unknown option "maxRowz" at maxRowz; did you mean "limits\.maxRows"\?/],
    [{ databases: 'a.db', limits: { maxRows: -1 } }, /limits\.maxRows: Too small/],
    [{}, /databases: Invalid input/],
    // In a union, the member the value was meant for says what is wrong, not "Invalid input".
    [{ databases: 'a.db', directories: [{ path: 5 }] }, /directories\.0\.path: Invalid input: expected string/],
  ])('refuses %j with where and what', (input, message) => {
    expect(() => parseOptions(schema, input, 'sql options')).toThrow(message);
  });

  it('suggests only names a typo could explain', () => {
    expect(closestName('timeoutMS', ['timeoutMs', 'maxRows'])).toBe('timeoutMs');
    expect(closestName('banana', ['timeoutMs', 'maxRows'])).toBeUndefined();
  });
});
