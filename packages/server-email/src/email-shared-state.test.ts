import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { serviceGate, type TestCallResult } from '@toolshed/mcp-core/testing';
import { openStateStore, type StateStore } from '@toolshed/state';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from '@toolshed/state/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DroppingSmtpListener, startDroppingSmtpListener } from './__fixtures__/dropping-smtp-listener.ts';
import { type EmailInstance, startEmailInstance, startEmailProcess } from './__fixtures__/email-instances.ts';
import { type SmtpFixture, startSmtpFixture } from './__fixtures__/smtp-fixture.ts';

const sender = 'Assistant <sender@example.com>';
const message = { to: 'bob@example.com', subject: 'Quarterly figures', text: 'Attached are the figures.' };

function textOf(result: TestCallResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

function messageIdIn(text: string): string | undefined {
  return /Message-ID (<[^>]+>)/.exec(text)?.[1];
}

/**
 * What reaches a plain SMTP server on this machine, as library options and as
 * the bin's flags and environment: the SMTP fixture wants its login, the
 * dropping listener none.
 */
function plainSmtp(server: { port: number; logins?: unknown }) {
  const login =
    server.logins === undefined ? undefined : { user: 'sender@example.com', password: 'correct horse battery staple' };
  return {
    options: { from: sender, smtp: { host: '127.0.0.1', port: server.port, security: 'none' as const, ...login } },
    flags: [
      ...['--from', sender, '--smtp-host', '127.0.0.1', '--smtp-port', String(server.port), '--smtp-security', 'none'],
      ...(login === undefined ? [] : ['--smtp-user', login.user]),
    ],
    env: login === undefined ? {} : { TOOLSHED_EMAIL_SMTP_PASSWORD: login.password },
  };
}

const open: { close(): Promise<unknown> }[] = [];
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-email-state-'));
});

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

function track<Item extends { close(): Promise<unknown> }>(item: Item): Item {
  open.push(item);
  return item;
}

async function dropping(): Promise<DroppingSmtpListener> {
  return track(await startDroppingSmtpListener());
}

/** Starts the bin, sends through it while the SMTP server keeps the message and never answers, and kills it with SIGKILL mid-send. */
async function killMidSend(flags: string[], env: Record<string, string>, smtp: SmtpFixture, keyed: object) {
  const first = await startEmailProcess([...flags, '--smtp-timeout-ms', '120000'], env);
  track(first);
  smtp.hangAfterNextData();
  const pending = first.client.callTool('send_email', { ...keyed }).catch(() => undefined);
  while (smtp.received.length === 0) await delay(20);
  await first.kill();
  await pending;
}

describe.runIf(serviceGate(postgresStateService, it))('email servers sharing a PostgreSQL state store', () => {
  let postgres: PostgresStateServer;
  const stores: StateStore[] = [];

  beforeAll(async () => {
    postgres = await startPostgresStateServer();
    // The password reaches the stores the way an operator gives it: PGPASSWORD, never the URL.
    process.env.PGPASSWORD = postgres.env.PGPASSWORD;
  }, 120_000);

  afterAll(async () => {
    for (const store of stores) await store.close();
    delete process.env.PGPASSWORD;
    await postgres?.stop();
  }, 60_000);

  /** A replica's own store, as a host would open it and hand it to the server; swept often, for the tests that kill one. */
  async function replicaStore(): Promise<StateStore> {
    const store = await openStateStore({ location: postgres.url, sweepEveryMs: 200, deadAfterMs: 500 });
    stores.push(store);
    return store;
  }

  it('sends one message when one key reaches two servers at once', async () => {
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const { options } = plainSmtp(smtp);
    // One is handed a store (as a host mounting it would), the other opens the one `state` names.
    const one = track(await startEmailInstance(options, { stateStore: await replicaStore() }, 'v2-modern'));
    const two = track(await startEmailInstance({ ...options, state: postgres.url }, {}, 'v1'));
    const keyed = { ...message, idempotency_key: 'figures-at-once-0001' };
    const results = await Promise.all([
      one.client.callTool('send_email', keyed),
      two.client.callTool('send_email', keyed),
    ]);
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false]);
    expect(results.map((result) => result.structuredContent?.replayed).sort()).toEqual([false, true]);
    expect(new Set(results.map((result) => result.structuredContent?.message_id)).size).toBe(1);
    await delay(100);
    expect(smtp.received).toHaveLength(1);
    // Later retries on either server replay it too.
    expect((await two.client.callTool('send_email', keyed)).structuredContent?.replayed).toBe(true);
    expect(smtp.received).toHaveLength(1);
  });

  it('lets another server retry a key whose send surely failed', async () => {
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const { options } = plainSmtp(smtp);
    const one = track(await startEmailInstance(options, { stateStore: await replicaStore() }));
    const two = track(await startEmailInstance(options, { stateStore: await replicaStore() }));
    const keyed = { ...message, idempotency_key: 'figures-refused-0001' };
    smtp.failNextData(554, '5.7.1 Try again later');
    const refused = await one.client.callTool('send_email', keyed);
    expect(textOf(refused)).toMatch(/Try again later.*Nothing was sent/);
    const retry = await two.client.callTool('send_email', keyed);
    expect(retry.isError).toBeFalsy();
    expect(retry.structuredContent?.replayed).toBe(false);
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps a send that dropped after DATA uncertain on every server, after the first is killed', async () => {
    const listener = await dropping();
    const { options, flags } = plainSmtp(listener);
    const first = track(await startEmailProcess(['--state', postgres.url, ...flags], postgres.env));
    const keyed = { ...message, idempotency_key: 'figures-dropped-0001' };
    const uncertain = await first.client.callTool('send_email', keyed);
    expect(textOf(uncertain)).toMatch(/Outcome unknown: .*ended after the message was handed over/);
    const messageId = messageIdIn(textOf(uncertain));
    expect(messageId).toBeDefined();
    await first.kill();

    const second = track(await startEmailInstance(options, { stateStore: await replicaStore() }));
    const sameKey = await second.client.callTool('send_email', keyed);
    expect(sameKey.isError).toBe(true);
    expect(textOf(sameKey)).toMatch(
      /Outcome unknown: .*ended after the message was handed over.*it may have been sent/,
    );
    expect(messageIdIn(textOf(sameKey))).toBe(messageId);
    const noKey = await second.client.callTool('send_email', message);
    expect(noKey.isError).toBe(true);
    expect(textOf(noKey)).toContain(`(Message-ID ${messageId}) and may have been sent`);
    expect(listener.received).toHaveLength(1);
  });

  it('turns the send of a server killed mid-send uncertain, and a retry on another waits for that and sends nothing', async () => {
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const { options, flags, env } = plainSmtp(smtp);
    // A message of its own: the store is shared with the other tests, and what it knows about a message lasts.
    const figures = { ...message, subject: 'Figures, killed mid-send' };
    const keyed = { ...figures, idempotency_key: 'figures-killed-0001' };
    const survivor = track(await startEmailInstance(options, { stateStore: await replicaStore() }));
    await killMidSend(['--state', postgres.url, ...flags], { ...postgres.env, ...env }, smtp, keyed);

    const sameKey = await survivor.client.callTool('send_email', keyed);
    expect(sameKey.isError).toBe(true);
    expect(textOf(sameKey)).toMatch(/^Outcome unknown: the process sending this message stopped before/);
    const noKey = await survivor.client.callTool('send_email', figures);
    expect(textOf(noKey)).toMatch(/^Not sent: a send of this same message stopped before its outcome was known/);
    await delay(100);
    expect(smtp.received).toHaveLength(1);
  });

  it('fails closed while the store is down: nothing sent, one sentence, no password', async () => {
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const { options } = plainSmtp(smtp);
    const instance = track(await startEmailInstance(options, { stateStore: await replicaStore() }));
    await postgres.pause();
    try {
      const result = await instance.client.callTool('send_email', { ...message, idempotency_key: 'figures-down-0001' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Not sent: the state store at postgres:\/\/toolshed@127\.0\.0\.1:\d+\/toolshed did not answer \(.+\); no email is sent without its record there/,
      );
      expect(textOf(result)).not.toContain(postgres.env.PGPASSWORD);
      expect(textOf(result)).not.toContain('\n');
      expect(instance.asked).toEqual([]);
    } finally {
      await postgres.resume();
    }
    // Every replica's store comes back by itself.
    const healthy = async () => (await Promise.all(stores.map((store) => store.health()))).every((health) => health.ok);
    await expect.poll(healthy, { timeout: 30_000, interval: 200 }).toBe(true);
    expect(smtp.received).toHaveLength(0);
  }, 60_000);
});

describe('an email server on the embedded SQLite store, restarted', () => {
  it('refuses a key whose send dropped after DATA and replays a sent one, after a SIGKILL and a restart', async () => {
    const state = join(directory, 'restart.db');
    const listener = await dropping();
    const { options, flags } = plainSmtp(listener);
    const first = track(await startEmailProcess(['--state', state, ...flags], {}));
    const dropped = { ...message, idempotency_key: 'figures-sqlite-0001' };
    const uncertain = await first.client.callTool('send_email', dropped);
    expect(textOf(uncertain)).toMatch(/Outcome unknown/);
    listener.dropAfterData = false;
    const delivered = { ...message, subject: 'Delivered', idempotency_key: 'delivered-sqlite-0001' };
    const sent = await first.client.callTool('send_email', delivered);
    expect(sent.structuredContent?.replayed).toBe(false);
    await first.kill();

    const restarted = track(await startEmailInstance({ ...options, state }));
    const sameKey = await restarted.client.callTool('send_email', dropped);
    expect(sameKey.isError).toBe(true);
    expect(textOf(sameKey)).toMatch(/Outcome unknown: .*it may have been sent/);
    expect(messageIdIn(textOf(sameKey))).toBe(messageIdIn(textOf(uncertain)));
    expect((await restarted.client.callTool('send_email', message)).isError).toBe(true);
    const replay = await restarted.client.callTool('send_email', delivered);
    expect(replay.structuredContent).toEqual({ ...sent.structuredContent, replayed: true });
    expect(listener.received).toHaveLength(2);
  });

  it('turns the send of a process killed mid-send uncertain when the server starts again', async () => {
    const state = join(directory, 'killed.db');
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const { options, flags, env } = plainSmtp(smtp);
    const keyed = { ...message, idempotency_key: 'figures-sqlite-killed-01' };
    await killMidSend(['--state', state, ...flags], env, smtp, keyed);
    const restarted = track(await startEmailInstance({ ...options, state }, {}, 'v1'));
    const sameKey = await restarted.client.callTool('send_email', keyed);
    expect(textOf(sameKey)).toMatch(/^Outcome unknown: the process sending this message stopped before/);
    expect(textOf(await restarted.client.callTool('send_email', message))).toMatch(/^Not sent: a send of this same/);
    await delay(100);
    expect(smtp.received).toHaveLength(1);
  });
});

describe('a state store that cannot be opened', () => {
  it.each([
    [
      'a PostgreSQL nobody answers',
      'postgres://toolshed:hunter2-secret@127.0.0.1:1/toolshed',
      /postgres:\/\/toolshed@127\.0\.0\.1:1\/toolshed/,
    ],
    // Its directory would be inside a file.
    ['a file that cannot be made', 'not-a-directory/state.db', /not-a-directory\/state\.db/],
  ])('%s: each send is refused in one sentence, without asking or sending', async (_name, location, where) => {
    writeFileSync(join(directory, 'not-a-directory'), '');
    const state = location.startsWith('postgres:') ? location : join(directory, location);
    const smtp = track(await startSmtpFixture({ security: 'none' }));
    const instance: EmailInstance = track(await startEmailInstance({ ...plainSmtp(smtp).options, state }));
    for (const call of [message, { ...message, idempotency_key: 'figures-no-store-0001' }]) {
      const result = await instance.client.callTool('send_email', call);
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(
        /^Not sent: the state store at .+ cannot be used: .+; no email is sent without its record there/,
      );
      expect(text).toMatch(where);
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('\n');
    }
    expect(instance.asked).toEqual([]);
    expect(smtp.received).toHaveLength(0);
  });
});
