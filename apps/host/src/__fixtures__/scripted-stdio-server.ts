/**
 * A bare legacy stdio server that behaves as its argument says, for the
 * host's tests of names and of upstreams that misbehave:
 * `node scripted-stdio-server.ts '{"label": "a", "tools": {"b_c": "echo"}}'`.
 * Each tool is read-only and takes no arguments; what it does is its
 * behaviour: `echo` answers `label:tool`, `wait` answers once an `open` tool is called, `tool-error` an isError result, `rpc-error` answers a JSON-RPC
 * error, `crash` exits, `silent` never answers, `garbage` writes a line that
 * is not JSON and never answers, `huge` answers with `hugeBytes` of text.
 * `initializeDelayMs` holds the answer to initialize back. `stderrBytes` are written to stderr as one line before anything else;
 * `forkAndExit` starts a long sleep in the same process group and exits.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

type Behaviour = 'echo' | 'wait' | 'open' | 'tool-error' | 'rpc-error' | 'crash' | 'silent' | 'garbage' | 'huge';
const script = JSON.parse(process.argv[2] ?? '{}') as {
  label?: string;
  tools?: Record<string, Behaviour>;
  hugeBytes?: number;
  stderrBytes?: number;
  stderrLines?: number;
  forkAndExit?: boolean;
  initializeDelayMs?: number;
};
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
/** Calls of `wait` tools, answered when an `open` tool is called. */
const waiting: (() => void)[] = [];

if (script.forkAndExit === true) {
  spawn('sleep', ['1000'], { stdio: 'ignore' }).unref();
  process.exit(0);
}
if (script.stderrBytes !== undefined) process.stderr.write(`${'e'.repeat(script.stderrBytes)}\n`);
if (script.stderrLines !== undefined) process.stderr.write('flood\n'.repeat(script.stderrLines));

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line) as { id?: number; method?: string; params?: Record<string, unknown> };
  if (message.id === undefined) return;
  const answer = (result: unknown) => send({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      setTimeout(
        () =>
          answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: script.label ?? 'scripted', version: '1' },
          }),
        script.initializeDelayMs ?? 0,
      );
      return;
    case 'tools/list':
      answer({
        tools: Object.keys(script.tools ?? {}).map((name) => ({
          name,
          description: `Behaves as scripted (${script.tools?.[name]}).`,
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
        })),
      });
      return;
    case 'tools/call': {
      const name = String(message.params?.name);
      switch (script.tools?.[name]) {
        case 'echo':
          answer({ content: [{ type: 'text', text: `${script.label}:${name}` }] });
          return;
        case 'wait':
          waiting.push(() => answer({ content: [{ type: 'text', text: `${script.label}:${name} waited` }] }));
          return;
        case 'open':
          for (const release of waiting.splice(0)) release();
          answer({ content: [{ type: 'text', text: `${script.label}:${name}` }] });
          return;
        case 'tool-error':
          answer({ content: [{ type: 'text', text: `${name} is offline` }], isError: true });
          return;
        case 'rpc-error':
          send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `${name} blew up` } });
          return;
        case 'crash':
          process.exit(70);
          return;
        case 'garbage':
          process.stdout.write('<html>this is not JSON</html>\n');
          return;
        case 'huge':
          answer({ content: [{ type: 'text', text: 'h'.repeat(script.hugeBytes ?? 0) }] });
          return;
        default:
          return;
      }
    }
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
