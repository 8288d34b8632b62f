/**
 * A small server built on mcp-core, served over stdio: the quick-start demo
 * talks to it, and the tests and benchmarks use it as a real child process.
 */

import {
  createMcpServer,
  defineCli,
  defineTool,
  httpCliOptions,
  runCli,
  serve,
  ToolError,
  textContent,
  toolResult,
} from '@toolshed/mcp-core';
import * as z from 'zod';

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given text unchanged. Use it to check that the server answers.',
  input: z.object({ text: z.string().max(100_000).describe('Text to send back') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ text }) => text,
});

const add = defineTool({
  name: 'add',
  title: 'Add numbers',
  description: 'Adds two finite numbers and returns their sum as structured data.',
  input: z.object({ a: z.number().describe('First addend'), b: z.number().describe('Second addend') }),
  output: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ a, b }) => ({ sum: a + b }),
});

const countSlowly = defineTool({
  name: 'count_slowly',
  title: 'Count slowly',
  description:
    'Counts from 1 to `to`, one step every `stepMs` milliseconds, reporting progress. Stops when cancelled. For testing long-running calls.',
  input: z.object({
    to: z.number().int().min(1).max(1000).describe('Last number'),
    stepMs: z.number().int().min(0).max(10_000).default(10).describe('Milliseconds between steps'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ to, stepMs }, context) {
    for (let step = 1; step <= to; step++) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      if (context.signal.aborted) throw new ToolError('Counting was cancelled');
      context.progress(step, to, `counted ${step}`);
    }
    context.log('info', { counted: to });
    return toolResult(textContent(`Counted to ${to}.`, { annotations: { audience: ['user'], priority: 0.5 } }));
  },
});

const deleteNote = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  description: 'Deletes a note by name after the user confirms. Nothing is stored; this shows confirmation.',
  input: z.object({ name: z.string().min(1).describe('Note name') }),
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run({ name }, context) {
    const { confirmed } = await context.confirm(`Delete the note "${name}"?`);
    return confirmed ? `Deleted "${name}".` : `Kept "${name}": the user did not confirm.`;
  },
});

const exampleServer = createMcpServer({
  name: 'toolshed-example',
  title: 'Toolshed example',
  version: '0.1.0',
  instructions: 'Example tools: echo text, add numbers, count slowly with progress, delete a note with confirmation.',
  tools: [echo, add, countSlowly, deleteNote],
});

const cli = defineCli({
  name: 'toolshed-example',
  version: '0.1.0',
  summary: 'Example MCP tools (echo, add, count_slowly, delete_note) over stdio or Streamable HTTP',
  options: httpCliOptions,
  examples: ['toolshed-example', 'toolshed-example --http 3000'],
});

await runCli(cli, process.argv.slice(2), process.env, (options) => serve(exampleServer, options));
