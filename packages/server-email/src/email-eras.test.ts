import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpServer } from '@toolshed/mcp-core';
import {
  binTestCases,
  connectTestClient,
  type TestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpFixture, startSmtpFixture } from './__fixtures__/smtp-fixture.ts';
import { createEmailServer } from './create-email-server.ts';
import type { EmailServerOptions, SendLogEntry } from './email-server-options.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
const yes = () => ({ action: 'accept', content: { confirmed: true } });

let smtp: SmtpFixture;
let directory: string;
let caFile: string;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  directory = mkdtempSync(join(tmpdir(), 'toolshed-email-eras-'));
  caFile = join(directory, 'ca.pem');
  writeFileSync(caFile, smtp.ca);
});

afterAll(async () => {
  await smtp.close();
  rmSync(directory, { recursive: true, force: true });
});

function binEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TOOLSHED_EMAIL_SMTP_URL: `smtp://sender%40example.com:${encodeURIComponent('correct horse battery staple')}@127.0.0.1:${smtp.port}`,
    TOOLSHED_EMAIL_SMTP_CA: caFile,
    TOOLSHED_EMAIL_FROM: 'Assistant <sender@example.com>',
    TOOLSHED_EMAIL_ALLOW_RECIPIENTS: 'example.com',
    TOOLSHED_EMAIL_STATE: join(directory, 'bin-state.db'),
  };
}

function receivedWithSubject(subject: string): number {
  return smtp.received.filter((message) => message.parsed.subject === subject).length;
}

/** The tools/call requests the client sent: one per attempt, so two when the first attempt ended at a question. */
function toolCallsSent(client: TestClient): Record<string, unknown>[] {
  return client.recording.messages
    .filter(
      (entry) => entry.direction === 'to-server' && (entry.message as { method?: string }).method === 'tools/call',
    )
    .map((entry) => entry.message as Record<string, unknown>);
}

/** What the server answered to requests: results and errors, in order. */
function responsesReceived(client: TestClient): Record<string, unknown>[] {
  return client.recording.messages
    .filter((entry) => entry.direction === 'to-client' && 'id' in (entry.message as object))
    .map((entry) => entry.message as Record<string, unknown>)
    .filter((message) => !('method' in message));
}

const elicitationsRequested = (client: TestClient) =>
  client.recording.messages.filter(
    (entry) =>
      entry.direction === 'to-client' && (entry.message as { method?: string }).method === 'elicitation/create',
  ).length;

async function expectEmailWorks(
  target: TestTarget,
  client: TestClientKind,
  transport: TestTransportKind,
  delivered: (subject: string) => number,
): Promise<void> {
  const asked: string[] = [];
  const connection = await connectTestClient(target, {
    client,
    transport,
    onElicit: (params) => {
      asked.push(String(params.message));
      return yes();
    },
  });
  const message = { to: 'Bob <bob@example.com>', subject: `Eras ${client} ${transport}`, text: 'Hello' };
  try {
    expect((await connection.listTools()).map((tool) => tool.name)).toEqual([
      'preview_email',
      'send_email',
      'validate_recipients',
    ]);
    const preview = await connection.callTool('preview_email', message);
    expect(preview.isError).toBeFalsy();
    expect(preview.structuredContent).toMatchObject({ would_send: true, needs_confirmation: true });
    expect(asked).toEqual([]);
    expect(delivered(message.subject)).toBe(0);

    const sent = await connection.callTool('send_email', message);
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ accepted: ['bob@example.com'], replayed: false });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(new RegExp(`^Send this email\\?\\n[^]*Subject: ${message.subject}\\n`));
    expect(delivered(message.subject)).toBe(1);

    const bad = await connection.callTool('send_email', { to: 'bob@example.com', subject: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/subject/);
    expect(asked).toHaveLength(1);
    expect(delivered(message.subject)).toBe(1);
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed-email in both protocol eras', () => {
  // A generous cap, not a speed bar: each case starts a Node process that loads the bin from TypeScript source.
  it.each(binTestCases)(
    '%s client over %s to the bin, delivering over SMTP',
    (client, transport) =>
      expectEmailWorks({ bin: [bin], env: binEnvironment() }, client, transport, receivedWithSubject),
    60_000,
  );

  it.each(testClientKinds)('%s client in memory to createEmailServer, delivering to the outbox', async (client) => {
    const outbox = join(directory, `outbox-${client}`);
    const server = createEmailServer({
      outboxDirectory: outbox,
      allowRecipients: ['example.com'],
      log: () => {},
      state: join(directory, `state-${client}.db`),
    });
    try {
      // The outbox directory appears with the first message written.
      await expectEmailWorks({ server }, client, 'memory', () => (existsSync(outbox) ? readdirSync(outbox).length : 0));
    } finally {
      await server.close();
    }
  });
});

describe('send_email over multi round-trip requests: compose, ask, then send', () => {
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  const message = (subject: string, extra: Record<string, unknown> = {}) => ({
    to: 'bob@example.com',
    subject,
    text: 'Body',
    ...extra,
  });

  type Answer = 'accept' | 'decline' | 'cancel';

  interface Setup {
    /** How the user answers the next confirmation. */
    answer: Answer;
    client: TestClient;
    server: McpServer;
    log: SendLogEntry[];
    /** Every confirmation the user was shown, with what had happened by then. */
    asked: { message: string; receivedSoFar: number; loggedSoFar: number }[];
  }

  async function connect(
    kind: TestClientKind,
    answer: Answer | 'no-elicitation',
    options: Partial<EmailServerOptions> = {},
  ): Promise<Setup> {
    const log: SendLogEntry[] = [];
    const server = createEmailServer({
      from: 'Assistant <sender@example.com>',
      smtp: {
        host: smtp.host,
        port: smtp.port,
        user: 'sender@example.com',
        password: 'correct horse battery staple',
        ca: smtp.ca,
      },
      allowRecipients: ['example.com'],
      log: (entry) => log.push(entry),
      state: join(directory, 'state.db'),
      ...options,
    });
    const asked: Setup['asked'] = [];
    let setup: Setup | undefined;
    const client = await connectTestClient(
      { server },
      {
        client: kind,
        transport: 'memory',
        ...(answer === 'no-elicitation'
          ? {}
          : {
              onElicit: (params: Record<string, unknown>) => {
                asked.push({
                  message: String(params.message),
                  receivedSoFar: smtp.received.length,
                  loggedSoFar: log.length,
                });
                const now = setup?.answer ?? answer;
                return now === 'accept' ? yes() : { action: now };
              },
            }),
      },
    );
    open.push(
      () => client.close(),
      () => server.close(),
    );
    setup = { answer: answer === 'no-elicitation' ? 'decline' : answer, client, server, log, asked };
    return setup;
  }

  it('v2-modern: the first attempt ends at the question, the retry sends, exactly once', async () => {
    // One send a minute: had the first attempt taken the slot, the retry would be refused.
    const { client, log, asked } = await connect('v2-modern', 'accept', { limits: { sendsPerMinute: 1 } });
    const before = smtp.received.length;
    const result = await client.callTool('send_email', message('Modern once'));
    expect(result.isError).toBeFalsy();
    expect(receivedWithSubject('Modern once')).toBe(1);
    expect(asked).toEqual([
      { message: expect.stringMatching(/^Send this email\?/), receivedSoFar: before, loggedSoFar: 0 },
    ]);
    const calls = toolCallsSent(client);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.params).not.toHaveProperty('inputResponses');
    expect(calls[1]?.params).toHaveProperty('inputResponses');
    const [interim, final] = responsesReceived(client).slice(-2);
    expect(interim?.result).toMatchObject({ resultType: 'input_required' });
    const questions = (interim?.result as { inputRequests?: object } | undefined)?.inputRequests ?? {};
    expect(Object.values(questions)).toEqual([
      { method: 'elicitation/create', params: expect.objectContaining({ mode: 'form' }) },
    ]);
    expect(final?.result).toMatchObject({ resultType: 'complete', structuredContent: { replayed: false } });
    expect(log.map((entry) => entry.event)).toEqual(['sent']);
    expect(client.recording.specViolations()).toEqual([]);
  });

  it('v2-legacy, for contrast: one attempt that asks over the session and then sends', async () => {
    const { client, log, asked } = await connect('v2-legacy', 'accept', { limits: { sendsPerMinute: 1 } });
    const before = smtp.received.length;
    expect((await client.callTool('send_email', message('Legacy once'))).isError).toBeFalsy();
    expect(receivedWithSubject('Legacy once')).toBe(1);
    expect(asked).toEqual([
      { message: expect.stringMatching(/^Send this email\?/), receivedSoFar: before, loggedSoFar: 0 },
    ]);
    expect(toolCallsSent(client)).toHaveLength(1);
    expect(elicitationsRequested(client)).toBe(1);
    expect(log.map((entry) => entry.event)).toEqual(['sent']);
  });

  it.each([
    ['v2-modern', 'decline', /the user declined to send this email/],
    ['v2-modern', 'cancel', /the user dismissed the confirmation/],
    ['v2-legacy', 'decline', /the user declined to send this email/],
    ['v2-legacy', 'cancel', /the user dismissed the confirmation/],
  ] as const)('%s: an answer of %s sends nothing and leaves the rate limit alone', async (kind, answer, refusal) => {
    const { client, log } = await connect(kind, answer, { limits: { sendsPerMinute: 1 } });
    const before = smtp.received.length;
    const result = await client.callTool('send_email', message(`Not ${answer} ${kind}`));
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(refusal);
    expect(smtp.received.length).toBe(before);
    expect(log.map((entry) => [entry.event, entry.reason])).toEqual([['declined', answer]]);
    expect(toolCallsSent(client)).toHaveLength(kind === 'v2-modern' ? 2 : 1);
    expect(client.recording.specViolations()).toEqual([]);
  });

  it.each(['v2-modern', 'v2-legacy', 'v1'] as const)(
    '%s client without elicitation: the server refuses in the tool result (its policy is decline, not -32021), nothing sent',
    async (kind) => {
      const { client, log } = await connect(kind, 'no-elicitation');
      const before = smtp.received.length;
      const result = await client.callTool('send_email', message(`Cannot ask ${kind}`));
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/cannot ask its user .* --skip-confirmation/);
      expect(smtp.received.length).toBe(before);
      expect(log.map((entry) => [entry.event, entry.reason])).toEqual([['declined', 'unavailable']]);
      // No question went out: a single attempt, answered with a result rather than a JSON-RPC error.
      expect(toolCallsSent(client)).toHaveLength(1);
      expect(responsesReceived(client).some((response) => 'error' in response)).toBe(false);
      expect(client.recording.specViolations()).toEqual([]);
    },
  );

  it.each(['v2-modern', 'v2-legacy'] as const)(
    '%s: the idempotency key makes a repeated call a replay: one question, one message',
    async (kind) => {
      const { client, log, asked } = await connect(kind, 'accept');
      const keyed = message(`Keyed ${kind}`, { idempotency_key: `ticket-4711-${kind}` });
      const first = await client.callTool('send_email', keyed);
      expect(first.isError).toBeFalsy();
      const callsForFirst = toolCallsSent(client).length;
      expect(callsForFirst).toBe(kind === 'v2-modern' ? 2 : 1);
      const again = await client.callTool('send_email', keyed);
      expect(again.isError).toBeFalsy();
      expect(again.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
      // A replay asks nothing, so even the modern client needs one attempt.
      expect(toolCallsSent(client).length - callsForFirst).toBe(1);
      expect(asked).toHaveLength(1);
      expect(receivedWithSubject(`Keyed ${kind}`)).toBe(1);
      expect(log.map((entry) => entry.event)).toEqual(['sent', 'replayed']);
      expect(client.recording.specViolations()).toEqual([]);
    },
  );

  it('v2-modern: concurrent calls with one key, each asked and confirmed, send once', async () => {
    const { client, log } = await connect('v2-modern', 'accept');
    const keyed = message('Keyed at once', { idempotency_key: 'ticket-4713-modern' });
    const results = await Promise.all([client.callTool('send_email', keyed), client.callTool('send_email', keyed)]);
    expect(results.map((result) => result.structuredContent?.replayed).sort()).toEqual([false, true]);
    expect(new Set(results.map((result) => result.structuredContent?.message_id)).size).toBe(1);
    expect(receivedWithSubject('Keyed at once')).toBe(1);
    expect(log.map((entry) => entry.event).sort()).toEqual(['replayed', 'sent']);
  });

  it('v2-modern: a declined keyed send leaves the key free, and the approved retry sends once', async () => {
    const setup = await connect('v2-modern', 'decline');
    const keyed = message('Keyed after a no', { idempotency_key: 'ticket-4712-modern' });
    expect((await setup.client.callTool('send_email', keyed)).isError).toBe(true);
    setup.answer = 'accept';
    const retry = await setup.client.callTool('send_email', keyed);
    expect(retry.structuredContent).toMatchObject({ replayed: false });
    expect(receivedWithSubject('Keyed after a no')).toBe(1);
    expect(setup.log.map((entry) => entry.event)).toEqual(['declined', 'sent']);
  });
});
