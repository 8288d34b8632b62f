import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';
import { defineTool, type Tool } from './define-tool.ts';
import type { StandardSchemaV1 } from './standard-schema.ts';

type CallResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: unknown };

async function connect(...tools: Tool[]): Promise<Client> {
  const client = new Client({ name: 't', version: '1' });
  await connectInMemory(createMcpServer({ name: 's', version: '1', tools }), client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallResult;

const noteSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, description: 'The note title' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['title'],
  additionalProperties: false,
} as const;

describe('a tool whose input is a JSON Schema', () => {
  const note = defineTool({
    name: 'add_note',
    description: 'Adds a note.',
    input: noteSchema,
    run: (args) => `added ${String(args.title)} with ${JSON.stringify(args.tags ?? [])}`,
  });

  it('lists the schema as given, and runs with the arguments as sent', async () => {
    const client = await connect(note);
    const { tools } = await client.listTools();
    expect(tools[0]?.inputSchema).toEqual(noteSchema);
    expect(await call(client, 'add_note', { title: 'milk', tags: ['shop'] })).toMatchObject({
      content: [{ type: 'text', text: 'added milk with ["shop"]' }],
    });
  });

  it.each([
    ['a value of the wrong type', { title: 3 }, /- title: Instance type "number" is invalid. Expected "string"/],
    ['a missing required field', {}, /- \(the arguments object\): Instance does not have required property "title"/],
    ['a field the tool does not take', { title: 'a', colour: 'red' }, /- colour: not accepted here/],
    ['a wrong array item', { title: 'a', tags: ['x', 2] }, /- tags\[1\]: Instance type "number" is invalid/],
    ['a value out of bounds', { title: '' }, /- title: String is too short/],
  ])('answers %s with an error result naming the field', async (_case, args, expected) => {
    const client = await connect(note);
    const result = await call(client, 'add_note', args);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^Invalid arguments for tool "add_note":\n/);
    expect(result.content[0]?.text).toMatch(expected);
    expect(result.content[0]?.text).not.toMatch(/does not match schema/);
    // The server goes on serving.
    expect((await call(client, 'add_note', { title: 'ok' })).isError).toBeFalsy();
  });

  it('refuses at definition what clients reject, as for zod', () => {
    const base = { name: 't', description: 'd', run: () => 'ok' };
    expect(() => defineTool({ ...base, input: { type: 'object', properties: { a: { $ref: '#/$defs/a' } } } })).toThrow(
      /\$ref at "\/properties\/a"/,
    );
    expect(() => defineTool({ ...base, input: { type: 'object', anyOf: [] } })).toThrow(/anyOf at the top level/);
    expect(() => defineTool({ ...base, input: { type: 'string' } as never })).toThrow(
      /must be a zod object schema \(z.object\(\{...\}\)\), another Standard Schema, or a JSON Schema with type "object"/,
    );
  });

  it('keeps its own copy: changing the object given later changes nothing', async () => {
    const given = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
    const tool = defineTool({ name: 'echo', description: 'Echo.', input: given, run: (args) => String(args.text) });
    given.properties.text.type = 'number';
    const client = await connect(tool);
    expect((await client.listTools()).tools[0]?.inputSchema).toMatchObject({
      properties: { text: { type: 'string' } },
    });
  });

  it('starts over stdio without loading zod, and loads its validator only for a call its quick check cannot pass', async () => {
    const loaded = await modulesLoadedByEchoServer();
    expect(loaded.answer).toMatchObject({ result: { content: [{ type: 'text', text: 'hello' }] } });
    expect(loaded.zod).toBe(false);
    expect(loaded.validatorBeforeCall).toBe(false);
    // A flat schema's passing call is answered by its quick check.
    expect(loaded.validatorAfterValidCall).toBe(false);
    expect(loaded.refusal).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringMatching(/text/) }] },
    });
    expect(loaded.validator).toBe(true);
  });
});

describe('a tool whose input is a Standard Schema', () => {
  const noteInput = v.object({ title: v.pipe(v.string(), v.minLength(1)), tags: v.optional(v.array(v.string())) });

  it('validates with the library and lists advertisedInputSchema', async () => {
    const tool = defineTool({
      name: 'add_note',
      description: 'Adds a note.',
      input: noteInput,
      advertisedInputSchema: noteSchema,
      // Typed from the schema's output: title is a string, tags an optional string array.
      run: ({ title, tags }) => `added ${title.toUpperCase()} with ${tags?.length ?? 0} tags`,
    });
    const client = await connect(tool);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual(noteSchema);
    expect((await call(client, 'add_note', { title: 'milk' })).content[0]?.text).toBe('added MILK with 0 tags');
    const refused = await call(client, 'add_note', { title: 4, tags: ['a', 1] });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/- title: Invalid type: Expected string but received 4/);
    expect(refused.content[0]?.text).toMatch(/- tags\[1\]: Invalid type: Expected string but received 1/);
  });

  it('lists the JSON Schema a library derives through Standard JSON Schema', async () => {
    const withJsonSchema: StandardSchemaV1 = {
      '~standard': {
        ...noteInput['~standard'],
        jsonSchema: { input: ({ target }) => ({ $schema: target, ...noteSchema }) },
      },
    };
    const tool = defineTool({ name: 'add_note', description: 'Adds a note.', input: withJsonSchema, run: () => 'ok' });
    const client = await connect(tool);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual(noteSchema);
    expect((await call(client, 'add_note', {})).isError).toBe(true);
  });

  it('refuses one that derives no JSON Schema and was given none', () => {
    expect(() => defineTool({ name: 't', description: 'd', input: noteInput, run: () => 'ok' })).toThrow(
      /derives no JSON Schema; give the tool's inputSchema as advertisedInputSchema/,
    );
  });

  it('waits for a validator that answers asynchronously', async () => {
    const asynchronous: StandardSchemaV1<unknown, { text: string }> = {
      '~standard': {
        version: 1,
        vendor: 'async-check',
        validate: async (value) =>
          typeof (value as { text?: unknown }).text === 'string'
            ? { value: value as { text: string } }
            : { issues: [{ message: 'must be text', path: [{ key: 'text' }] }] },
      },
    };
    const tool = defineTool({
      name: 'echo',
      description: 'Echo.',
      input: asynchronous,
      advertisedInputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      run: ({ text }) => text,
    });
    const client = await connect(tool);
    expect((await call(client, 'echo', { text: 'hi' })).content[0]?.text).toBe('hi');
    expect((await call(client, 'echo', { text: 1 })).content[0]?.text).toMatch(/- text: must be text/);
  });
});

const echoServer = new URL('../__fixtures__/json-schema-echo-server.ts', import.meta.url).pathname;

/** Node's module hooks report, on stderr, every zod and validator module the process loads, and when. */
const probe = `data:text/javascript,${encodeURIComponent(
  'import { registerHooks } from "node:module";' +
    'registerHooks({ load(url, context, next) {' +
    ' if (url.includes("/zod/")) process.stderr.write("loaded zod\\n");' +
    ' if (url.includes("@cfworker")) process.stderr.write("loaded validator\\n");' +
    ' return next(url, context); } });',
)}`;

interface EchoServerLoads {
  answer: unknown;
  refusal: unknown;
  zod: boolean;
  validatorBeforeCall: boolean;
  validatorAfterValidCall: boolean;
  validator: boolean;
}

function modulesLoadedByEchoServer(): Promise<EchoServerLoads> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', probe, echoServer], { stdio: 'pipe' });
    let stderr = '';
    let stdout = '';
    let stderrAtList = '';
    let stderrAtAnswer = '';
    let answer: unknown;
    let refusal: unknown;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number };
        if (message.id === 2 && stderrAtList === '') {
          stderrAtList = `${stderr} `;
          child.stdin.write(
            '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}\n',
          );
        }
        if (message.id === 3 && answer === undefined) {
          answer = message;
          stderrAtAnswer = `${stderr} `;
          child.stdin.write(
            '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":5}}}\n',
          );
        }
        if (message.id === 4 && refusal === undefined) {
          refusal = message;
          child.stdin.end();
        }
      }
    });
    child.once('error', reject);
    child.once('exit', () =>
      resolve({
        answer,
        refusal,
        zod: stderr.includes('loaded zod'),
        validatorBeforeCall: stderrAtList.includes('loaded validator'),
        validatorAfterValidCall: stderrAtAnswer.includes('loaded validator'),
        validator: stderr.includes('loaded validator'),
      }),
    );
    child.stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
    );
  });
}
