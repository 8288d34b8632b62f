import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { defineTool } from './define-tool.ts';

const base = { description: 'A tool.', input: z.object({}), run: () => 'ok' };

describe('defineTool checks at definition time', () => {
  it.each(['', 'has space', 'dot.name', 'ünïcode', 'x'.repeat(65), 'slash/name'])('refuses the name %j', (name) => {
    expect(() => defineTool({ ...base, name })).toThrow(/Tool name .* is invalid/);
  });

  it.each(['a', 'get_weather', 'list-files', 'A1', 'x'.repeat(64)])('accepts the name %j', (name) => {
    expect(defineTool({ ...base, name }).name).toBe(name);
  });

  it('requires a description', () => {
    expect(() => defineTool({ ...base, name: 't', description: '  ' })).toThrow(/needs a description/);
  });

  it('requires an object input schema', () => {
    expect(() => defineTool({ ...base, name: 't', input: z.string() as never })).toThrow(/must be a zod object schema/);
  });

  it('refuses recursive schemas, which would need $ref', () => {
    type Node = { child?: Node };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ child: node.optional() })) as never;
    expect(() => defineTool({ ...base, name: 't', input: z.object({ tree: node }) })).toThrow(/\$ref/);
  });

  it('refuses schemas JSON Schema cannot express', () => {
    expect(() => defineTool({ ...base, name: 't', input: z.object({ when: z.date() }) })).toThrow(
      /cannot be expressed as JSON Schema/,
    );
  });

  it('refuses an output schema that is not an object', () => {
    expect(() => defineTool({ ...base, name: 't', output: z.array(z.string()) } as never)).toThrow(
      /output must be a zod object/,
    );
  });

  it('raises branded local errors', () => {
    try {
      defineTool({ ...base, name: '' });
      expect.unreachable();
    } catch (error) {
      expect(LocalError.isInstance(error)).toBe(true);
      expect((error as LocalError).code).toBe('tool_definition_invalid');
    }
  });

  it('produces JSON Schema 2020-12 for input and output, with no $schema member', () => {
    const tool = defineTool({
      name: 'forecast',
      title: 'Forecast',
      description: 'Forecast for a city.',
      input: z.object({
        city: z.string().min(1).describe('City name'),
        days: z.number().int().min(1).max(16).default(3),
        units: z.enum(['metric', 'imperial']).optional(),
      }),
      output: z.object({ days: z.array(z.object({ high: z.number() })) }),
      annotations: { readOnlyHint: true, openWorldHint: true },
      run: () => ({ days: [] }),
    });
    expect(tool.descriptor).toEqual({
      name: 'forecast',
      title: 'Forecast',
      description: 'Forecast for a city.',
      inputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, description: 'City name' },
          days: { type: 'integer', minimum: 1, maximum: 16, default: 3 },
          units: { type: 'string', enum: ['metric', 'imperial'] },
        },
        required: ['city'],
      },
      outputSchema: {
        type: 'object',
        properties: {
          days: {
            type: 'array',
            items: {
              type: 'object',
              properties: { high: { type: 'number' } },
              required: ['high'],
              additionalProperties: false,
            },
          },
        },
        required: ['days'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  });
});
