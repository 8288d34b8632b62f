import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';
import { connectTestClient } from '../testing/connect-test-client.ts';

function elicitingClient(answer: (params: { message: string; requestedSchema: unknown }) => Record<string, unknown>) {
  const client = new ClientV1({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  const asked: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answer(request.params as { message: string; requestedSchema: unknown }) as never;
  });
  return { client, asked };
}

describe('confirm', () => {
  it.each([
    [
      { action: 'accept', content: { confirmed: true } },
      { confirmed: true, action: 'accept' },
    ],
    [
      { action: 'accept', content: { confirmed: false } },
      { confirmed: false, action: 'accept' },
    ],
    // Answers that do not fit the question: answered, but not a yes — not an error, not "cannot ask".
    [
      { action: 'accept', content: { confirm: true } },
      { confirmed: false, action: 'accept' },
    ],
    [
      { action: 'accept', content: { confirmed: 'yes' } },
      { confirmed: false, action: 'accept' },
    ],
    [{ action: 'accept' }, { confirmed: false, action: 'accept' }],
    [{ action: 'decline' }, { confirmed: false, action: 'decline' }],
    [{ action: 'cancel' }, { confirmed: false, action: 'cancel' }],
  ])('turns the answer %j into %j', async (answer, expected) => {
    const { client, asked } = elicitingClient(() => answer);
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'confirm_delete', arguments: { target: 'notes.txt' } });
    expect(result.structuredContent).toEqual(expected);
    expect(asked).toEqual([
      {
        message: 'Delete notes.txt?',
        requestedSchema: {
          type: 'object',
          properties: { confirmed: { type: 'boolean', description: 'Check to allow this action' } },
          required: ['confirmed'],
        },
      },
    ]);
    expect(recording.specViolations()).toEqual([]);
  });

  it.each(['v2-legacy', 'v2-modern'] as const)(
    '%s client: an answer that does not fit the question is answered-but-not-a-yes, in either era',
    async (kind) => {
      const server = createFixtureServer();
      const client = await connectTestClient(
        { server },
        { client: kind, transport: 'memory', onElicit: () => ({ action: 'accept', content: { confirm: true } }) },
      );
      try {
        const result = await client.callTool('confirm_delete', { target: 'notes.txt' });
        expect(result.structuredContent).toEqual({ confirmed: false, action: 'accept' });
        expect(client.recording.specViolations()).toEqual([]);
      } finally {
        await client.close();
        await server.close();
      }
    },
  );

  it('fails the call clearly when the client cannot ask, by default', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'confirm_delete', arguments: { target: 'x' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(
      /needs an answer from the user, but the client did not declare the elicitation capability/,
    );
  });

  it('hands the tool an unavailable outcome under the decline policy — never a yes', async () => {
    const client = new ClientV2({ name: 't', version: '1' });
    await connectInMemory(createFixtureServer({ whenElicitationUnavailable: 'decline' }), client);
    const result = await client.callTool({ name: 'confirm_delete', arguments: { target: 'x' } });
    expect(result.structuredContent).toEqual({ confirmed: false, action: 'unavailable' });
  });

  it('treats a client that declared only URL elicitation as unable to show a form', async () => {
    const client = new ClientV1({ name: 't', version: '1' }, { capabilities: { elicitation: { url: {} } } });
    await connectInMemory(createFixtureServer({ whenElicitationUnavailable: 'decline' }), client);
    const result = await client.callTool({ name: 'confirm_delete', arguments: { target: 'x' } });
    expect(result.structuredContent).toEqual({ confirmed: false, action: 'unavailable' });
  });
});

describe('elicit', () => {
  it('sends a flat form and validates the answer', async () => {
    const { client, asked } = elicitingClient(() => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
    expect(asked[0]).toMatchObject({
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Your name' }, age: { type: 'integer', minimum: 0 } },
        required: ['name'],
      },
    });
    expect(recording.specViolations()).toEqual([]);
  });

  it('refuses an answer that does not fit the form', async () => {
    const { client } = elicitingClient(() => ({ action: 'accept', content: { age: 36 } }));
    await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]?.text).toMatch(/does not match the form/);
  });

  it('works with the SDK v2 client', async () => {
    const client = new ClientV2({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Grace' }]);
    expect(recording.specViolations()).toEqual([]);
  });
});
