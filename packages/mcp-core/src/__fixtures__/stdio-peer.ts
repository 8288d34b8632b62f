import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createSpecValidator } from '../testing/spec-schema-validator.ts';

export const stdioFixtureServerPath: string = new URL('./stdio-fixture-server.ts', import.meta.url).pathname;

export interface StdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Parsed lines the server wrote to stdout. */
  readonly messages: Record<string, unknown>[];
  /** Lines of stdout that were not JSON: each one is a bug. */
  readonly strayStdout: string[];
  stderr(): string;
  write(data: string | Buffer): Promise<void>;
  waitFor(predicate: (messages: Record<string, unknown>[]) => boolean, timeoutMs?: number): Promise<void>;
  request(id: number | string, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the server wrote that breaks the official 2025-11-25 schema. */
  specViolations(): string[];
}

/** Spawns the fixture server and speaks raw newline-delimited JSON to it. */
export function spawnStdioPeer(env: Record<string, string> = {}): StdioPeer {
  const child = spawn(process.execPath, [stdioFixtureServerPath], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const messages: Record<string, unknown>[] = [];
  const strayStdout: string[] = [];
  const methodsById = new Map<unknown, string>();
  const remember = (data: string | Buffer): void => {
    for (const line of String(data).split('\n')) {
      try {
        const frame = JSON.parse(line) as { id?: unknown; method?: unknown };
        if (typeof frame.method === 'string' && frame.id !== undefined) methodsById.set(frame.id, frame.method);
      } catch {
        // Not every frame a test writes is JSON, nor whole.
      }
    }
  };
  let stderr = '';
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      try {
        messages.push(JSON.parse(line));
      } catch {
        strayStdout.push(line);
      }
      newline = pending.indexOf('\n');
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const peer: StdioPeer = {
    child,
    messages,
    strayStdout,
    stderr: () => stderr,
    exited,
    write(data) {
      if (data.length < 1_000_000) remember(data);
      return new Promise((resolve, reject) => child.stdin.write(data, (error) => (error ? reject(error) : resolve())));
    },
    specViolations() {
      const validator = createSpecValidator('2025-11-25');
      return messages.flatMap((message) =>
        validator
          .validateServerMessage(message, 'method' in message ? undefined : methodsById.get(message.id))
          .map((problem) => `${problem} in ${JSON.stringify(message).slice(0, 200)}`),
      );
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(messages)) {
        if (Date.now() > deadline) throw new Error(`timed out; stderr: ${stderr.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async request(id, method, params) {
      await peer.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`);
      await peer.waitFor((all) => all.some((message) => message.id === id && !('method' in message)));
      return messages.find((message) => message.id === id && !('method' in message)) as Record<string, unknown>;
    },
  };
  return peer;
}

export const initializeFrame: string = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
})}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;
