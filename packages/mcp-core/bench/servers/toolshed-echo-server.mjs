// The echo server on the built package, as npm users run it.
import * as z from 'zod';
import { createMcpServer, defineTool, serveStdio } from '../../dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});
// The run is the default export, for the bundle's start module to wait on.
export default serveStdio(createMcpServer({ name: 'toolshed-echo', version: '1.0.0', tools: [echo] }));
