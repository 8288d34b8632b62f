/** A stdio MCP server in a child process, driven by a bare JSON-RPC client, and its memory from /proc. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface StdioServer {
  child: ChildProcess;
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ structuredContent?: unknown; content?: { text?: string }[]; isError?: boolean }>;
  close(): Promise<void>;
}

export async function startStdioServer(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<StdioServer> {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    let message: { id?: number; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'memory-bench', version: '1' },
  });
  child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    child,
    async call(name, args) {
      const response = await request('tools/call', { name, arguments: args });
      if (response.error !== undefined) throw new Error(`${name}: ${JSON.stringify(response.error)}`);
      const result = response.result as { isError?: boolean; content?: { text?: string }[] };
      if (result.isError === true) throw new Error(`${name}: ${result.content?.[0]?.text}`);
      return result;
    },
    async close() {
      child.stdin?.end();
      child.kill();
    },
  };
}

/** Resident and peak resident memory of a process, in MB, from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
