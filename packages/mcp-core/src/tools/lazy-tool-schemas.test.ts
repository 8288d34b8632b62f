import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';
import { toolJsonSchemaModule } from '../testing/tool-json-schema-module.ts';
import { defineTool, type ToolJsonSchemas } from './define-tool.ts';

/** A tool whose schemas count their builds; `jsonSchemas` as generated, or none. */
function countedTool(jsonSchemas?: ToolJsonSchemas) {
  const builds = { input: 0, output: 0 };
  const tool = defineTool({
    name: 'shout',
    description: 'Returns the text in capitals.',
    input: () => {
      builds.input += 1;
      return z.object({ text: z.string().min(1).describe('What to shout') });
    },
    output: () => {
      builds.output += 1;
      return z.object({ shouted: z.string() });
    },
    jsonSchemas,
    run: ({ text }) => ({ shouted: text.toUpperCase() }),
  });
  return { tool, builds };
}

function generated(): Required<ToolJsonSchemas> {
  const source = toolJsonSchemaModule(createMcpServer({ name: 's', version: '1', tools: [countedTool().tool] }));
  const json = /= (\{[\s\S]*\});\n$/.exec(source)?.[1];
  return JSON.parse(json ?? 'null').shout;
}

describe('tool schemas built on first use', () => {
  it('builds neither schema to define and list the tool, and each once at its first call', async () => {
    const { tool, builds } = countedTool(generated());
    const client = new Client({ name: 't', version: '1' });
    await connectInMemory(createMcpServer({ name: 's', version: '1', tools: [tool] }), client);
    const { tools } = await client.listTools();
    expect(builds).toEqual({ input: 0, output: 0 });
    expect(tools[0]?.inputSchema).toMatchObject({ properties: { text: { type: 'string', minLength: 1 } } });
    expect(tools[0]?.outputSchema).toMatchObject({ properties: { shouted: { type: 'string' } } });

    expect(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })).toMatchObject({
      structuredContent: { shouted: 'HI' },
    });
    const refused = await client.callTool({ name: 'shout', arguments: { text: '' } });
    expect(refused.isError).toBe(true);
    await client.callTool({ name: 'shout', arguments: { text: 'again' } });
    expect(builds).toEqual({ input: 1, output: 1 });
  });

  it('lists the same schemas as a tool that derives them at definition', async () => {
    const lazy = countedTool(generated());
    const eager = countedTool();
    expect(eager.builds).toEqual({ input: 1, output: 1 });
    expect(lazy.tool.descriptor).toEqual(eager.tool.descriptor);
  });

  it('refuses generated schemas that do not fit the definition', () => {
    const { input } = generated();
    const run = () => 'ok';
    expect(() =>
      defineTool({ name: 't', description: 'd', input: () => z.object({}), jsonSchemas: { input: {} }, run }),
    ).toThrow(/jsonSchemas must hold object schemas/);
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        input: () => z.object({}),
        jsonSchemas: { input, output: input },
        run,
      }),
    ).toThrow(/one for output only when the tool has an output/);
  });

  it('answers a call with an error the model can read when a schema fails to build, and keeps serving', async () => {
    const errors: unknown[] = [];
    const broken = defineTool({
      name: 'broken',
      description: 'Never works.',
      input: () => z.string() as never,
      jsonSchemas: { input: { type: 'object', properties: {} } },
      run: () => 'ok',
    });
    const client = new Client({ name: 't', version: '1' });
    const server = createMcpServer({
      name: 's',
      version: '1',
      tools: [broken, countedTool(generated()).tool],
      onServerError: (error) => errors.push(error),
    });
    await connectInMemory(server, client);
    const result = await client.callTool({ name: 'broken', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/could not build/) }] });
    expect(String(errors[0])).toMatch(/must be a zod object schema/);
    expect((await client.callTool({ name: 'shout', arguments: { text: 'ok' } })).isError).toBeFalsy();
  });

  it('takes generated schemas for the output alone, when the input depends on options', async () => {
    const output = generated().output;
    const builds = { output: 0 };
    const tool = defineTool({
      name: 'count',
      description: 'Counts up to a configured limit.',
      input: z.object({ to: z.number().int().max(3) }),
      output: () => {
        builds.output += 1;
        return z.object({ shouted: z.string() });
      },
      jsonSchemas: { output },
      run: ({ to }) => ({ shouted: String(to) }),
    });
    expect(tool.descriptor.inputSchema).toMatchObject({ properties: { to: { maximum: 3 } } });
    expect(tool.descriptor.outputSchema).toEqual(output);
    expect(builds.output).toBe(0);
    const source = toolJsonSchemaModule(createMcpServer({ name: 's', version: '1', tools: [tool] }));
    expect(source).toContain('"count": {\n    "output": {');
    expect(source).not.toContain('"input"');
  });

  it('generates a module for lazily defined tools only, checked as defineTool checks', () => {
    const eager = defineTool({ name: 'eager', description: 'd', input: z.object({}), run: () => 'ok' });
    const server = createMcpServer({ name: 's', version: '1', tools: [eager, countedTool().tool] });
    const source = toolJsonSchemaModule(server, 'schemas');
    expect(source).toMatch(/^\/\/ Generated/);
    expect(source).toContain('export const schemas: Record<"shout", ToolJsonSchemas> = {\n  "shout": {');
    expect(source).not.toContain('"eager"');

    const recursive = defineTool({
      name: 'tree',
      description: 'd',
      input: () => {
        type Node = { child?: Node };
        const node: z.ZodType<Node> = z.lazy(() => z.object({ child: node.optional() })) as never;
        return z.object({ tree: node });
      },
      jsonSchemas: { input: { type: 'object' } },
      run: () => 'ok',
    });
    expect(() => toolJsonSchemaModule(createMcpServer({ name: 's', version: '1', tools: [recursive] }))).toThrow(
      /\$ref/,
    );
  });
});
