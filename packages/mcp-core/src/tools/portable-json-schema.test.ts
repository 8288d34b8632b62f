import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { connectTestClient, type TestClientKind } from '../testing/connect-test-client.ts';
import { defineTool } from './define-tool.ts';
import { toPortableJsonSchema } from './portable-json-schema.ts';

/** Every `type` list anywhere in a schema, by its JSON pointer. */
function typeLists(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((item, index) => typeLists(item, `${path}/${index}`));
  const found = Array.isArray((node as { type?: unknown }).type) ? [path || '/'] : [];
  return [
    ...found,
    ...Object.entries(node).flatMap(([key, value]) => (key === 'type' ? [] : typeLists(value, `${path}/${key}`))),
  ];
}

const shapes = z.object({
  nullable: z.string().min(2).nullable(),
  optionalNullable: z.number().int().max(9).nullable().optional(),
  defaultNull: z.string().nullable().default(null),
  nested: z.object({ inner: z.boolean().nullable(), deep: z.object({ at: z.string().nullable() }).nullable() }),
  list: z.array(z.string().max(3).nullable()).nullable(),
  union: z.union([z.string(), z.number()]),
  nullableUnion: z.union([z.string(), z.number(), z.null()]),
  choice: z.enum(['a', 'b']).nullable().optional(),
  described: z.string().describe('A note').nullable(),
});

const tool = defineTool({
  name: 'shapes',
  description: 'Echoes its arguments.',
  input: shapes,
  output: shapes,
  run: (args) => args,
});

const full = {
  nullable: null,
  optionalNullable: null,
  defaultNull: null,
  nested: { inner: null, deep: null },
  list: ['ab', null],
  union: 3,
  nullableUnion: null,
  choice: null,
  described: null,
};

describe('portable tool schemas', () => {
  it('emits no type lists, in input or output', () => {
    expect(typeLists(tool.descriptor.inputSchema)).toEqual([]);
    expect(typeLists(tool.descriptor.outputSchema)).toEqual([]);
  });

  it('writes a nullable value as anyOf, each type keeping its own keywords and the annotations staying outside', () => {
    const output = tool.descriptor.outputSchema as { properties: Record<string, unknown> };
    expect(output.properties.nullable).toEqual({ anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] });
    expect(output.properties.union).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(output.properties.defaultNull).toEqual({ default: null, anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(output.properties.described).toEqual({
      description: 'A note',
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
  });

  it('drops null from optional inputs, which a model omits instead, and keeps it on required ones', () => {
    const input = tool.descriptor.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(input.properties.optionalNullable).toEqual({ type: 'integer', maximum: 9 });
    expect(input.properties.defaultNull).toEqual({ type: 'string' });
    expect(input.properties.choice).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(input.required).toContain('nullable');
    expect(input.properties.nullable).toEqual({ anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] });
  });

  it('accepts in its schemas what the zod schema accepts', () => {
    const ajv = new Ajv2020({ strict: false });
    const validateOutput = ajv.compile(tool.descriptor.outputSchema as object);
    const validateInput = ajv.compile(tool.descriptor.inputSchema);
    const omitted = { ...full, optionalNullable: undefined, defaultNull: undefined, choice: undefined };
    const samples = [
      full,
      { ...full, nullable: 'ok', list: null, nullableUnion: 'x', nested: { inner: true, deep: { at: 'y' } } },
    ];
    for (const sample of samples) {
      expect(shapes.safeParse(sample).success).toBe(true);
      expect(validateOutput(sample), JSON.stringify(validateOutput.errors)).toBe(true);
    }
    const inputSample = JSON.parse(JSON.stringify(omitted)) as unknown;
    expect(shapes.safeParse(inputSample).success).toBe(true);
    expect(validateInput(inputSample), JSON.stringify(validateInput.errors)).toBe(true);
    expect(validateOutput({ ...full, nullable: 'x' })).toBe(false);
  });

  it('leaves a schema with no type lists as it was, and keeps other anyOf beside the new one', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(toPortableJsonSchema(plain, 'input')).toEqual(plain);
    const both = { type: ['string', 'null'], anyOf: [{ minLength: 1 }, { const: null }] };
    expect(toPortableJsonSchema(both, 'output')).toEqual({
      allOf: [{ anyOf: [{ minLength: 1 }, { const: null }] }, { anyOf: [{ type: 'string' }, { type: 'null' }] }],
    });
  });

  it("drops the safe-integer bounds zod writes on an integer with no bound of its own, and keeps the tool's own", () => {
    const counts = defineTool({
      name: 'counts',
      description: 'Counts.',
      input: z.object({ any: z.number().int(), atLeastOne: z.number().int().min(1), upTo: z.number().int().max(9) }),
      output: z.object({ total: z.number().int().nullable() }),
      run: () => ({ total: null }),
    });
    expect(counts.descriptor.inputSchema.properties).toEqual({
      any: { type: 'integer' },
      atLeastOne: { type: 'integer', minimum: 1 },
      upTo: { type: 'integer', maximum: 9 },
    });
    expect((counts.descriptor.outputSchema as { properties: unknown }).properties).toEqual({
      total: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    });
  });

  it.each<TestClientKind>(['v1', 'v2-legacy', 'v2-modern'])(
    'the %s client validates structured content full of nulls against the output schema',
    async (kind) => {
      const server = createMcpServer({ name: 'portable', version: '1.0.0', tools: [tool] });
      const client = await connectTestClient({ server }, { client: kind, transport: 'memory' });
      const result = await client.callTool('shapes', full);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(full);
      expect(client.recording.specViolations()).toEqual([]);
      await client.close();
    },
  );
});
