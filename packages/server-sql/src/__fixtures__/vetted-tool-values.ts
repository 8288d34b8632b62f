import type { ParameterDefinition } from '../vetted-tools/vetted-tools-file.ts';

/** One parameter of every type a vetted tool takes, named `s`, `i`, `n`, `b`, `d`, `t` and `a`. */
export const everyType: ParameterDefinition[] = [
  { name: 's', type: 'string' },
  { name: 'i', type: 'integer' },
  { name: 'n', type: 'number' },
  { name: 'b', type: 'boolean' },
  { name: 'd', type: 'date' },
  { name: 't', type: 'timestamp' },
  { name: 'a', type: 'array', items: 'string' },
];

/** A value for each, with quotes, backslashes and array-literal syntax where a splice would break. */
export const everyValue: Record<'s' | 'i' | 'n' | 'b' | 'd' | 't', string | number | boolean> & { a: string[] } = {
  s: 'it\'s \\ "quoted"',
  i: 41,
  n: 2.5,
  b: true,
  d: '2026-11-25',
  t: '2026-11-25T14:30:00+13:00',
  a: ['a"b', "c'd", 'e,f', '{}', 'NULL'],
};
