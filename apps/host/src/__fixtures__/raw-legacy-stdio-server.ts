/**
 * A bare legacy-only stdio server, for the ways old servers meet
 * server/discover: `--silent` never answers it, `--exit` exits on it.
 * Speaks initialize, tools/list and tools/call with one tool, `echo`.
 */
import { createInterface } from 'node:readline';

const onDiscover = process.argv.includes('--exit') ? 'exit' : 'silent';
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { id?: number; method?: string; params?: Record<string, unknown> };
  if (message.id === undefined) return;
  switch (message.method) {
    case 'server/discover':
      if (onDiscover === 'exit') process.exit(1);
      return;
    case 'initialize':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'raw-legacy', version: '1' },
        },
      });
      return;
    case 'tools/list':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          tools: [
            {
              name: 'echo',
              description: 'Echoes `text`.',
              inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
            },
          ],
        },
      });
      return;
    case 'tools/call': {
      const args = (message.params?.arguments ?? {}) as { text?: string };
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: `${process.pid}: ${args.text}` }] },
      });
      return;
    }
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
