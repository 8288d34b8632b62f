import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startCuttingProxy } from './__fixtures__/cutting-proxy.ts';
import { dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { startEachTest, textOf } from './__fixtures__/email-harness.ts';
import { type FakeImapBehaviour, type FakeImapServer, startFakeImapServer } from './__fixtures__/fake-imap-server.ts';
import { createEmailServer } from './create-email-server.ts';

const password = 'imap-secret-do-not-print';
const start = startEachTest();
let fake: FakeImapServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function againstFake(behaviour: FakeImapBehaviour, security: 'starttls' | 'none' | 'tls') {
  fake = await startFakeImapServer(behaviour);
  const port = fake.port;
  return start({
    smtp: false,
    server: () => ({
      imap: { host: '127.0.0.1', port, security, user: 'reader@example.com', password },
      limits: { imapTimeoutMs: 300 },
    }),
  });
}

describe('connection safety', () => {
  it('refuses a server that does not offer STARTTLS, sending no login in plain text', async () => {
    const harness = await againstFake('no-starttls', 'starttls');
    const result = await harness.call('list_mailboxes', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/STARTTLS/);
    expect(fake?.received.join('\n')).not.toMatch(/LOGIN|AUTHENTICATE|imap-secret/i);
    expect(textOf(result)).not.toContain(password);
  });

  it('refuses a server that answers STARTTLS with NO, sending no login', async () => {
    const harness = await againstFake('refuse-starttls', 'starttls');
    const result = await harness.call('search_messages', {});
    expect(result.isError).toBe(true);
    expect(fake?.received.some((line) => /STARTTLS/i.test(line))).toBe(true);
    expect(fake?.received.join('\n')).not.toMatch(/LOGIN|AUTHENTICATE|imap-secret/i);
  });

  it('answers a silent server with an isError, not a hang', async () => {
    const harness = await againstFake('silent', 'none');
    const result = await harness.call('list_mailboxes', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer within 300 ms/);
  });

  it('answers a server that goes silent after the login with an isError, and tries again on the next call', async () => {
    const harness = await againstFake('silent-after-login', 'none');
    const first = await harness.call('list_mailboxes', {});
    expect(first.isError).toBe(true);
    expect(textOf(first)).not.toContain(password);
    const second = await harness.call('list_mailboxes', {});
    expect(second.isError).toBe(true);
    expect(fake?.connections).toBe(2);
  });

  it('answers a dropped connection with an isError', async () => {
    const harness = await againstFake('drop-after-greeting', 'none');
    const result = await harness.call('search_messages', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain(password);
  });

  it('lists its tools and sends without ever connecting to IMAP', async () => {
    const harness = await againstFake('silent', 'none');
    const tools = await harness.client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual([
      'list_mailboxes',
      'preview_email',
      'read_message',
      'search_messages',
      'send_email',
      'validate_recipients',
    ]);
    const sent = await harness.call('send_email', { to: 'bob@example.com', subject: 'Hi', text: 'Body' });
    expect(sent.isError).toBeFalsy();
    expect(fake?.connections).toBe(0);
  });

  it.each([
    [
      'plain text to another host',
      { host: 'imap.example.com', security: 'none' as const, password },
      /allowed only to 127.0.0.1/,
    ],
    ['no password', { host: 'imap.example.com' }, /TOOLSHED_EMAIL_IMAP_PASSWORD/],
    ['save directory without IMAP', undefined, /needs an IMAP server/],
  ])('refuses the configuration: %s', (_name, imap, message) => {
    const options = imap === undefined ? { saveDirectory: '/tmp' } : { imap: { user: 'reader@example.com', ...imap } };
    expect(() => createEmailServer({ outboxDirectory: '/tmp/toolshed-unused-outbox', ...options })).toThrow(message);
  });
});

describe.runIf(serviceGate(dovecotService, it))('connection to Dovecot', () => {
  it('never skips certificate checks: an untrusted certificate is an error', async () => {
    const dovecot = await startDovecot();
    try {
      const harness = await start({
        smtp: false,
        server: () => ({
          imap: { host: '127.0.0.1', port: dovecot.imapsPort, user: dovecot.user, password: dovecot.password },
        }),
      });
      const result = await harness.call('list_mailboxes', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/certificate/);
      expect(textOf(result)).not.toContain(dovecot.password);
    } finally {
      await dovecot.stop();
    }
  }, 60_000);

  it('reconnects after the connection drops', async () => {
    const dovecot = await startDovecot();
    const proxy = await startCuttingProxy(dovecot.imapsPort);
    try {
      const harness = await start({
        smtp: false,
        server: () => ({
          imap: { host: '127.0.0.1', port: proxy.port, user: dovecot.user, password: dovecot.password, ca: dovecot.ca },
        }),
      });
      expect((await harness.call('list_mailboxes', {})).isError).toBeFalsy();
      proxy.cut();
      // The drop is noticed either by the next command or before it; in both cases a later call works.
      const afterCut = await harness.call('list_mailboxes', {});
      const next = afterCut.isError === true ? await harness.call('list_mailboxes', {}) : afterCut;
      expect(next.isError).toBeFalsy();
      expect(proxy.connections).toBe(2);
      const wrong = await start({
        smtp: false,
        server: () => ({
          imap: {
            host: '127.0.0.1',
            port: dovecot.imapsPort,
            user: dovecot.user,
            password: 'wrong password',
            ca: dovecot.ca,
          },
        }),
      });
      const refused = await wrong.call('list_mailboxes', {});
      expect(textOf(refused)).toMatch(/refused the login/);
      expect(textOf(refused)).not.toContain('wrong password');
    } finally {
      await proxy.close();
      await dovecot.stop();
    }
  }, 60_000);
});
