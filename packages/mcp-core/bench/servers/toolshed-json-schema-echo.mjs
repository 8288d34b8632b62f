// The echo server on the built package with its tool's input given as a JSON
// Schema: nothing imports zod, so the process never loads it.
import { createMcpServer, defineTool, serveStdio } from '../../dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  run: ({ text }) => text,
});
await serveStdio(createMcpServer({ name: 'toolshed-echo', version: '1.0.0', tools: [echo] }));
