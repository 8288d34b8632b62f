/**
 * An echo server whose tool takes a JSON Schema, on stdio: the server a user
 * writes without a schema library, which must load no zod.
 */
import { createMcpServer, defineTool, serveStdio } from '../index.ts';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  run: ({ text }) => String(text),
});

await serveStdio(createMcpServer({ name: 'json-schema-echo', version: '1.0.0', tools: [echo] }));
