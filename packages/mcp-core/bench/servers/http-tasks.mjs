// The tools of the tasks bench, served over Streamable HTTP by the built mcp-core: an echo, the same echo run
// only as a task (answered with a task already complete), and a sleep that becomes a task at once for a client
// that declared the extension and is an ordinary call for one that did not.
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import { createMcpServer, defineTool, serveHttp } from '../../dist/index.js';

const echo = {
  description: 'Returns the text unchanged.',
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
};
const server = createMcpServer({
  name: 'toolshed-tasks',
  version: '1.0.0',
  tools: [
    defineTool({ name: 'echo', ...echo }),
    defineTool({ name: 'echo_task', ...echo, task: 'required' }),
    defineTool({
      name: 'sleep',
      description: 'Waits for the given number of milliseconds.',
      input: z.object({ ms: z.number().int().min(0) }),
      task: 'optional',
      taskAfterMs: 0,
      run: async ({ ms }, context) => {
        await sleep(ms, undefined, { signal: context.signal });
        return 'slept';
      },
    }),
  ],
});
const http = await serveHttp(server, { responseMode: 'json' });
process.stdout.write(`READY ${http.url}\n`);
// Profiling runs (BENCH_NODE_ARGS=--cpu-prof) stop with SIGINT so the profile is written.
process.once('SIGINT', () => process.exit(0));
