import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { McpServer } from '@toolshed/mcp-core';
import {
  alivePids,
  connectTestClient,
  processTree,
  type TestClient,
  type TestClientKind,
} from '@toolshed/mcp-core/testing';
import { createEmailServer, type EmailServerRuntime } from '../create-email-server.ts';
import type { EmailServerOptions } from '../email-server-options.ts';

const bin = new URL('../cli.ts', import.meta.url).pathname;
/** One email server a test talks to through a real client; the user says yes to every send. */
export interface EmailInstance {
  client: TestClient;
  /** The confirmations the user was shown. */
  asked: string[];
  close(): Promise<void>;
}

function answeringYes(asked: string[]) {
  return (params: Record<string, unknown>) => {
    asked.push(String(params.message));
    return { action: 'accept', content: { confirmed: true } };
  };
}

/** An instance that is the bin in a process of its own, which the test can kill. */
export interface EmailProcess extends EmailInstance {
  /** The process's id, for reading its memory from /proc. */
  pid: number;
  /** Kills the process with SIGKILL: no handler runs, nothing is cleaned up or recorded. */
  kill(): Promise<void>;
}

/** createEmailServer in this process, behind an in-memory connection. */
export async function startEmailInstance(
  options: EmailServerOptions,
  runtime: EmailServerRuntime = {},
  kind: TestClientKind = 'v2-modern',
): Promise<EmailInstance & { server: McpServer }> {
  const server = createEmailServer({ allowRecipients: ['example.com'], log: () => {}, ...options }, runtime);
  const asked: string[] = [];
  const client = await connectTestClient(
    { server },
    { client: kind, transport: 'memory', onElicit: answeringYes(asked) },
  );
  return {
    client,
    asked,
    server,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Our child process whose environment holds this marker. */
function childWithMarker(marker: string): number | undefined {
  return processTree(process.pid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

/** The `toolshed-email` bin over stdio, run with Node from its source. */
export async function startEmailProcess(
  args: readonly string[],
  env: Record<string, string>,
  kind: TestClientKind = 'v1',
): Promise<EmailProcess> {
  const marker = `TOOLSHED_EMAIL_TEST_INSTANCE=${randomUUID()}`;
  const asked: string[] = [];
  const [name = '', value = ''] = marker.split('=');
  const client = await connectTestClient(
    { bin: [bin, '--allow-recipients', 'example.com', ...args], env: { ...process.env, ...env, [name]: value } },
    { client: kind, transport: 'stdio', onElicit: answeringYes(asked) },
  );
  const pid = childWithMarker(marker);
  if (pid === undefined) throw new Error('the email server process was not found');
  return {
    client,
    asked,
    pid,
    async kill() {
      process.kill(pid, 'SIGKILL');
      while (alivePids([pid]).length > 0) await delay(20);
    },
    close: () => client.close().catch(() => undefined),
  };
}
