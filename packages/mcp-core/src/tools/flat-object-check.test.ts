import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { flatObjectCheck } from './flat-object-check.ts';
import type { JsonObjectSchema } from './tool-input.ts';

const flatSchemas: JsonObjectSchema[] = [
  { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  {
    type: 'object',
    description: 'Where and how much.',
    properties: {
      path: { type: 'string', description: 'A file' },
      head: { type: 'integer' },
      ratio: { type: 'number' },
      all: { type: 'boolean', title: 'All' },
    },
    required: ['path'],
  },
  { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {}, additionalProperties: true },
  { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
];

const argumentSamples: unknown[] = [
  {},
  { text: 'hello' },
  { text: '' },
  { text: 7 },
  { text: null },
  { text: ['a'] },
  { text: 'x', extra: 1 },
  { path: '/tmp/a' },
  { path: '/tmp/a', head: 3 },
  { path: '/tmp/a', head: 3.5 },
  { path: '/tmp/a', head: 1e21 },
  { path: '/tmp/a', head: Number.NaN },
  { path: '/tmp/a', head: Number.POSITIVE_INFINITY },
  { path: '/tmp/a', ratio: Number.NaN },
  { path: '/tmp/a', all: 'yes' },
  { path: '/tmp/a', all: false, other: { deep: true } },
  { n: -0 },
  { n: 2 ** 53 + 2 },
  { n: '1' },
  JSON.parse('{"__proto__": {"text": "x"}}'),
  JSON.parse('{"text": "x", "__proto__": 1}'),
  Object.create({ text: 'inherited' }),
  [],
  null,
  'text',
];

function draftOf(schema: JsonObjectSchema) {
  return typeof schema.$schema === 'string' && schema.$schema.includes('draft-07') ? '7' : '2020-12';
}

describe('the quick check of flat object schemas', () => {
  it('passes only what @cfworker/json-schema passes, and passes the plain valid calls', () => {
    for (const schema of flatSchemas) {
      const quick = flatObjectCheck(schema);
      expect(quick, JSON.stringify(schema)).toBeTypeOf('function');
      const validator = new Validator(schema as never, draftOf(schema), false);
      for (const args of argumentSamples) {
        const valid = validator.validate(args).valid;
        if (quick?.(args) === true) expect(valid, `${JSON.stringify(schema)} ${JSON.stringify(args)}`).toBe(true);
      }
    }
    expect(flatObjectCheck(flatSchemas[0] as JsonObjectSchema)?.({ text: 'hello' })).toBe(true);
    expect(flatObjectCheck(flatSchemas[1] as JsonObjectSchema)?.({ path: '/a', head: 2, ratio: 0.5, all: true })).toBe(
      true,
    );
    expect(flatObjectCheck(flatSchemas[0] as JsonObjectSchema)?.({ text: 'x', extra: 1 })).toBe(false);
    expect(flatObjectCheck(flatSchemas[1] as JsonObjectSchema)?.({ path: '/a', head: 3.5 })).toBe(false);
  });

  it.each([
    ['a constraint', { type: 'object', properties: { text: { type: 'string', minLength: 1 } } }],
    ['an enum', { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] } } }],
    ['a nested object', { type: 'object', properties: { at: { type: 'object' } } }],
    ['a type list', { type: 'object', properties: { text: { type: ['string', 'null'] } } }],
    ['an array property', { type: 'object', properties: { items: { type: 'array' } } }],
    ['an additionalProperties schema', { type: 'object', additionalProperties: { type: 'string' } }],
    [
      'a property named like a member of Object.prototype',
      { type: 'object', properties: { toString: { type: 'string' } } },
    ],
    ['a required name like a member of Object.prototype', { type: 'object', required: ['constructor'] }],
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } }],
    ['no type', { properties: { text: { type: 'string' } } }],
  ])('leaves a schema with %s to the validator', (_name, schema) => {
    expect(flatObjectCheck(schema as JsonObjectSchema)).toBeUndefined();
  });
});
