import * as z from 'zod';
import { ToolError } from '../errors/tool-error.ts';
import { imageContent, textContent } from '../results/content-blocks.ts';
import { structuredResult, toolResult } from '../results/tool-result.ts';
import { createMcpServer, type McpServer, type McpServerOptions } from '../server/create-mcp-server.ts';
import { defineTool, type Tool } from '../tools/define-tool.ts';

/** A 1×1 transparent PNG. */
export const onePixelPng: string =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export const echoTool: Tool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true },
  run: ({ text }) => text,
});

export const addTool: Tool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number().int().max(1000) }),
  output: z.object({ sum: z.number() }),
  run: ({ a, b }) => ({ sum: a + b }),
});

export const failingTool: Tool = defineTool({
  name: 'fail',
  description: 'Fails in the way asked: a ToolError, a plain Error with a secret path, or bad output.',
  input: z.object({ how: z.enum(['tool-error', 'crash', 'bad-output', 'nothing']) }),
  output: z.object({ ok: z.boolean() }),
  run({ how }) {
    if (how === 'tool-error') throw new ToolError('The widget is locked; unlock it first.');
    if (how === 'crash') throw new Error('ENOENT: /home/alice/.secrets/token.txt');
    if (how === 'bad-output') return { ok: 'yes' } as unknown as { ok: boolean };
    return undefined as unknown as { ok: boolean };
  },
});

export const waitTool: Tool = defineTool({
  name: 'wait',
  description: 'Reports progress every 10 ms for `steps` steps, or until cancelled.',
  input: z.object({ steps: z.number().int().min(1).max(10_000), stepMs: z.number().int().default(10) }),
  async run({ steps, stepMs }, context) {
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      if (context.signal.aborted) throw new ToolError('cancelled');
      context.progress(step, steps, `step ${step}`);
      context.progress(step - 0.5, steps); // not increasing: must be dropped
    }
    return `waited ${steps} steps`;
  },
});

export const mediaTool: Tool = defineTool({
  name: 'media',
  description: 'Returns one of each content type.',
  input: z.object({}),
  run: () =>
    toolResult([
      textContent('hello', {
        annotations: { audience: ['user', 'assistant'], priority: 1, lastModified: new Date(0) },
      }),
      imageContent(Buffer.from(onePixelPng, 'base64'), 'image/png'),
    ]),
});

export const logTool: Tool = defineTool({
  name: 'log',
  description: 'Logs at every level, with a secret in the data.',
  input: z.object({}),
  run(_args, context) {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) {
      context.log(level, { message: `at ${level}`, apiKey: 'sk-live-123', header: 'Bearer abc.def' }, 'fixture');
    }
    return 'logged';
  },
});

export const confirmTool: Tool = defineTool({
  name: 'confirm_delete',
  description: 'Asks the user to confirm, then reports what they said.',
  input: z.object({ target: z.string() }),
  output: z.object({ confirmed: z.boolean(), action: z.string() }),
  async run({ target }, context) {
    const outcome = await context.confirm(`Delete ${target}?`);
    return structuredResult({ confirmed: outcome.confirmed, action: outcome.action });
  },
});

export const askTool: Tool = defineTool({
  name: 'ask_name',
  description: 'Asks the user for a name and an age.',
  input: z.object({}),
  async run(_args, context) {
    const outcome = await context.elicit({
      message: 'Who are you?',
      schema: z.object({ name: z.string().describe('Your name'), age: z.number().int().min(0).optional() }),
    });
    return outcome.action === 'accept' ? `Hello ${outcome.content.name}` : `No answer (${outcome.action})`;
  },
});

export const fixtureTools: readonly Tool[] = [
  echoTool,
  addTool,
  failingTool,
  waitTool,
  mediaTool,
  logTool,
  confirmTool,
  askTool,
];

/** A server with every fixture tool; server-side errors are collected instead of printed. */
export function createFixtureServer(options: Partial<McpServerOptions> = {}): McpServer & { serverErrors: string[] } {
  const serverErrors: string[] = [];
  const server = createMcpServer({
    name: 'fixture',
    version: '1.2.3',
    title: 'Fixture server',
    description: 'Tools for tests',
    instructions: 'Use echo to test.',
    tools: fixtureTools,
    onServerError: (error, where) => serverErrors.push(`${where}: ${String(error)}`),
    ...options,
  });
  return Object.assign(server, { serverErrors });
}
