import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { parseHostConfig } from '../config/load-config.ts';
import { createHost, type Host } from '../create-host.ts';

export type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

/** How the test user answers approval and elicitation requests. */
export type UserAnswer = 'accept' | 'decline' | 'cancel' | 'no-elicitation';

export interface HostHarness {
  host: Host;
  client: Client;
  directory: string;
  /** Messages the user was shown. */
  asked: string[];
  answer: UserAnswer;
  /** What the user fills in for a question, by its message, when accepting; default: a name. */
  forms: Record<string, Record<string, unknown>>;
  /** Lines of the host's log. */
  log: string[];
  call(name: string, args: Record<string, unknown>, options?: Parameters<Client['callTool']>[2]): Promise<CallResult>;
  specViolations(): unknown[];
  close(): Promise<void>;
}

/**
 * A host from a config object (audit log in a temporary directory unless
 * the config says otherwise), started, and an official SDK client connected
 * to it in memory.
 */
export async function startHostHarness(
  config: (directory: string) => Record<string, unknown>,
  options: { answer?: UserAnswer; restartDelayMs?: number; probeTimeLimitMs?: number } = {},
): Promise<HostHarness> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-host-'));
  const document = config(directory);
  const toolshed = (document.toolshed ?? {}) as Record<string, unknown>;
  const withAudit = {
    ...document,
    toolshed: { ...toolshed, audit: { path: join(directory, 'audit.jsonl'), ...(toolshed.audit as object) } },
  };
  const log: string[] = [];
  const host = createHost(parseHostConfig(JSON.stringify(withAudit), join(directory, 'toolshed.json')), {
    log: (line) => log.push(line),
    restartDelayMs: options.restartDelayMs ?? 100,
    // A child started on a busy machine may take longer than the default to answer server/discover.
    probeTimeLimitMs: options.probeTimeLimitMs ?? 60_000,
  });
  await host.start();
  const answer = options.answer ?? 'accept';
  const client = new Client(
    { name: 'host-test', version: '1' },
    { capabilities: answer === 'no-elicitation' ? {} : { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  const harness: HostHarness = {
    host,
    client,
    directory,
    asked,
    answer,
    forms: {},
    log,
    call: async (name, args, callOptions) =>
      (await client.callTool({ name, arguments: args }, undefined, callOptions)) as CallResult,
    specViolations: () => recording.specViolations(),
    async close() {
      await client.close();
      await host.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  if (answer !== 'no-elicitation') {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(String(request.params.message));
      if (harness.answer === 'accept') {
        const form = harness.forms[String(request.params.message)];
        if (form !== undefined) return { action: 'accept', content: form };
        const properties = Object.keys(
          (request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {},
        );
        return {
          action: 'accept',
          content: properties.includes('confirmed') ? { confirmed: true } : { name: 'Ada Lovelace' },
        };
      }
      return { action: harness.answer === 'decline' ? 'decline' : 'cancel' };
    });
  }
  const { recording } = await connectInMemory(host.server, client);
  return harness;
}

export function textOf(result: CallResult): string {
  return result.content[0]?.text ?? '';
}

/** The command that starts the official everything server over stdio, as a config entry. */
export function everythingServer(): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).pathname,
      'stdio',
    ],
  };
}

/** The scripted stdio server as a config entry (see scripted-stdio-server.ts for what a script may say). */
export function scriptedServer(script: Record<string, unknown>): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [new URL('./scripted-stdio-server.ts', import.meta.url).pathname, JSON.stringify(script)],
  };
}
