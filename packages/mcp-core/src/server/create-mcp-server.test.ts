import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { CallContext } from '../engine/call-context.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { LogLevel } from '../logging/log-level.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import { connectTestClient, type TestClientKind } from '../testing/connect-test-client.ts';
import { defineTool } from '../tools/define-tool.ts';
import { createMcpServer } from './create-mcp-server.ts';

const legacyVersion = '2025-11-25';
const modernVersion = '2026-07-28';

/** A caller's context made by hand: what a host that received a call would hold. */
function callerContext(
  options: {
    protocolVersion?: string;
    capabilities?: Record<string, unknown>;
    signal?: AbortSignal;
    elicit?: CallContext['elicit'];
    logged?: { level: LogLevel; data: unknown }[];
  } = {},
): CallContext {
  const refuse = () => Promise.reject(new Error('not expected in this test'));
  return {
    signal: options.signal ?? new AbortController().signal,
    protocolVersion: options.protocolVersion ?? legacyVersion,
    client: { info: { name: 'caller', version: '1' }, capabilities: options.capabilities ?? {} },
    auth: undefined,
    progress: () => {},
    log: (level, data) => options.logged?.push({ level, data }),
    elicit: options.elicit ?? refuse,
    confirm: refuse,
    sample: refuse,
    roots: () => Promise.resolve(undefined),
    closeStream: () => {},
    continueAsTask: () => Promise.resolve(false),
  };
}

const sideEffects: string[] = [];

function createBackServer(policy: ElicitationUnavailablePolicy = 'fail') {
  return createMcpServer({
    name: 'back',
    version: '1',
    whenElicitationUnavailable: policy,
    tools: [
      defineTool({
        name: 'add',
        description: 'Adds two numbers.',
        input: z.object({ a: z.number(), b: z.number() }),
        output: z.object({ sum: z.number() }),
        run: ({ a, b }) => ({ sum: a + b }),
      }),
      defineTool({
        name: 'delete_file',
        description: 'Deletes after the user confirms.',
        input: z.object({ path: z.string() }),
        async run({ path }, call) {
          const answer = await call.confirm(`Delete ${path}?`);
          if (!answer.confirmed) throw new ToolError(`Not deleted (${answer.action})`);
          sideEffects.push(path);
          return `deleted ${path}`;
        },
      }),
      defineTool({
        name: 'ask_age',
        description: 'Asks a number.',
        input: z.object({}),
        async run(_args, call) {
          const answer = await call.elicit({ message: 'Your age?', schema: z.object({ age: z.number() }), key: 'age' });
          return answer.action === 'accept' ? `age ${answer.content.age}` : answer.action;
        },
      }),
      defineTool({
        name: 'wait',
        description: 'Waits until cancelled.',
        input: z.object({}),
        run: (_args, call) =>
          new Promise<never>((_resolve, reject) =>
            call.signal.addEventListener('abort', () => reject(call.signal.reason)),
          ),
      }),
      defineTool({
        name: 'log_secret',
        description: 'Logs its options.',
        input: z.object({}),
        run(_args, call) {
          call.log('info', { host: 'db', password: 'hunter2' });
          return 'logged';
        },
      }),
    ],
  });
}

describe('McpServer.callTool', () => {
  it('runs a tool in process: arguments checked, every outcome a result as a client would get it', async () => {
    const back = createBackServer();
    const sum = await back.callTool('add', { a: 2, b: 3 }, callerContext());
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(sum.isError).toBeFalsy();
    const wrong = await back.callTool('add', { a: 'two' }, callerContext());
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/tool "add"/) });
  });

  it('rejects an unknown or disabled tool with the error a tools/call gets', async () => {
    const back = createBackServer();
    back.setToolEnabled('add', false);
    for (const name of ['nope', 'add']) {
      const error = await back.callTool(name, {}, callerContext()).catch((caught: unknown) => caught);
      expect(ProtocolError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: JsonRpcErrorCode.InvalidParams,
        message: `Unknown tool: "${name}". Call tools/list for the available tools.`,
      });
    }
  });

  it("rejects with the signal's reason when the caller cancels", async () => {
    const back = createBackServer();
    const controller = new AbortController();
    const pending = back.callTool('wait', {}, callerContext({ signal: controller.signal }));
    const reason = new Error('the caller went away');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it.each(['v1', 'v2-modern'] as const satisfies readonly TestClientKind[])(
    "asks the caller's user through the caller's context (%s), and the tool's side effect happens once",
    async (kind) => {
      const back = createBackServer();
      const front = createMcpServer({
        name: 'front',
        version: '1',
        tools: [
          defineTool({
            name: 'relay',
            description: 'Calls a tool of the back server.',
            input: z.object({ tool: z.string(), args: z.looseObject({}) }),
            run: ({ tool, args }, call) => back.callTool(tool, args, call),
          }),
        ],
      });
      const asked: Record<string, unknown>[] = [];
      const client = await connectTestClient(
        { server: front },
        {
          client: kind,
          transport: 'memory',
          onElicit: (params) => {
            asked.push(params);
            return String(params.message).startsWith('Delete')
              ? { action: 'accept', content: { confirmed: true } }
              : { action: 'accept', content: { age: 'not a number' } };
          },
        },
      );
      try {
        sideEffects.length = 0;
        const deleted = await client.callTool('relay', { tool: 'delete_file', args: { path: 'a.txt' } });
        expect(deleted.content[0]?.text).toBe('deleted a.txt');
        expect(sideEffects).toEqual(['a.txt']);
        expect(asked.map((params) => params.message)).toEqual(['Delete a.txt?']);
        // The answer is checked against the called tool's own form, not the caller's.
        const age = await client.callTool('relay', { tool: 'ask_age', args: {} });
        expect(age.content[0]?.text).toMatch(/does not match the form/);
        expect(asked.at(-1)?.requestedSchema).toMatchObject({ properties: { age: { type: 'number' } } });
        expect(client.recording.specViolations()).toEqual([]);
      } finally {
        await client.close();
        await front.close();
        await back.close();
      }
    },
  );

  it("answers a caller whose client cannot show a form by the called server's policy, in each era", async () => {
    const legacyFail = await createBackServer('fail').callTool('delete_file', { path: 'b' }, callerContext());
    expect(legacyFail.isError).toBe(true);
    expect(legacyFail.content[0]).toMatchObject({ text: expect.stringMatching(/needs an answer from the user/) });
    const modernFail = await createBackServer('fail')
      .callTool('delete_file', { path: 'b' }, callerContext({ protocolVersion: modernVersion }))
      .catch((caught: unknown) => caught);
    expect(modernFail).toMatchObject({ code: JsonRpcErrorCode.MissingRequiredClientCapability });
    for (const protocolVersion of [legacyVersion, modernVersion]) {
      const declined = await createBackServer('decline').callTool('ask_age', {}, callerContext({ protocolVersion }));
      expect(declined.content[0]).toMatchObject({ text: 'unavailable' });
    }
  });

  it("passes the called tool's question key and form to the caller", async () => {
    const questions: Parameters<CallContext['elicit']>[0][] = [];
    const result = await createBackServer().callTool(
      'ask_age',
      {},
      callerContext({
        capabilities: { elicitation: { form: {} } },
        elicit: async (request) => {
          questions.push(request);
          return { action: 'accept', content: { age: 42 } } as never;
        },
      }),
    );
    expect(result.content[0]).toMatchObject({ text: 'age 42' });
    expect(questions[0]).toMatchObject({
      message: 'Your age?',
      key: 'age',
      requestedSchema: { type: 'object', properties: { age: { type: 'number' } } },
    });
  });

  it('redacts secrets from what the tool logs, as for its own clients', async () => {
    const logged: { level: LogLevel; data: unknown }[] = [];
    await createBackServer().callTool('log_secret', {}, callerContext({ logged }));
    expect(logged).toEqual([{ level: 'info', data: { host: 'db', password: '[redacted]' } }]);
  });
});
