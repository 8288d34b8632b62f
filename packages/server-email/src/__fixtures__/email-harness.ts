import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@toolshed/mcp-core';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { afterEach } from 'vitest';
import { createEmailServer } from '../create-email-server.ts';
import type { EmailServerOptions, SendLogEntry } from '../email-server-options.ts';
import { type SmtpFixture, type SmtpFixtureOptions, startSmtpFixture } from './smtp-fixture.ts';

export type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

/** How the test user answers the confirmation: yes, no, dismiss, or a client that cannot ask at all. */
export type UserAnswer = 'accept' | 'decline' | 'cancel' | 'no-elicitation';

export interface EmailHarness {
  smtp: SmtpFixture | undefined;
  server: McpServer;
  client: Client;
  /** The confirmation messages the user was shown. */
  asked: string[];
  /** Send-log entries. */
  log: SendLogEntry[];
  /** A temporary directory: attachments in `attachments/`, the outbox in `outbox/`, the state store in `state.db`. */
  directory: string;
  answer: UserAnswer;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallResult>;
  specViolations(): unknown[];
  close(): Promise<void>;
}

export interface EmailHarnessOptions {
  /** Deliver to a fresh SMTP fixture (default), or `false` for outbox mode. */
  smtp?: SmtpFixtureOptions | false;
  answer?: UserAnswer;
  /** Server options on top of the harness's: sender, the fixture's login and CA, example.com allowed. */
  server?: (directory: string) => EmailServerOptions;
}

/** An email server delivering to a real local SMTP server, driven by the official SDK client in memory. */
export async function startEmailHarness(options: EmailHarnessOptions = {}): Promise<EmailHarness> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-email-'));
  const smtp = options.smtp === false ? undefined : await startSmtpFixture(options.smtp ?? {});
  const log: SendLogEntry[] = [];
  const server = createEmailServer({
    from: 'Assistant <sender@example.com>',
    ...(smtp === undefined
      ? { outboxDirectory: join(directory, 'outbox') }
      : {
          smtp: {
            host: smtp.host,
            port: smtp.port,
            security: options.smtp === false ? undefined : (options.smtp?.security ?? 'starttls'),
            user: 'sender@example.com',
            password: 'correct horse battery staple',
            ca: smtp.ca,
          },
        }),
    allowRecipients: ['example.com'],
    log: (entry) => log.push(entry),
    // A store of the test's own: keys and doubts from other tests or earlier runs must not answer for this one.
    state: join(directory, 'state.db'),
    ...options.server?.(directory),
  });
  const answer = options.answer ?? 'accept';
  const client = new Client(
    { name: 'email-test', version: '1' },
    { capabilities: answer === 'no-elicitation' ? {} : { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  const harness: EmailHarness = {
    smtp,
    server,
    client,
    asked,
    log,
    directory,
    answer,
    call: async (name, args, callOptions) =>
      (await client.callTool({ name, arguments: args }, undefined, callOptions)) as CallResult,
    specViolations: () => recording.specViolations(),
    async close() {
      await client.close();
      await server.close();
      await smtp?.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  if (answer !== 'no-elicitation') {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(String(request.params.message));
      if (harness.answer === 'accept') return { action: 'accept', content: { confirmed: true } };
      return { action: harness.answer === 'decline' ? 'decline' : 'cancel' };
    });
  }
  const { recording } = await connectInMemory(server, client);
  return harness;
}

/**
 * A `start` for tests that each want their own server: the harness a test
 * started last is closed after it.
 */
export function startEachTest(): (options?: EmailHarnessOptions) => Promise<EmailHarness> {
  let harness: EmailHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });
  return async (options = {}) => {
    harness = await startEmailHarness(options);
    return harness;
  };
}

/** The text of a result's first block. */
/** Every text block of a result, in order: a structured result's JSON mirror, then its sentence for the model. */
export function textOf(result: CallResult): string {
  return result.content
    .map((block) => block.text)
    .filter((text) => text !== undefined)
    .join('\n');
}
