import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceGate, type TestClientKind } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailInstance, startEmailInstance } from './__fixtures__/email-instances.ts';
import { type OAuth2Provider, startOAuth2Provider } from './__fixtures__/oauth2-provider.ts';
import { textMessage } from './__fixtures__/sample-messages.ts';
import { type SmtpFixture, startSmtpFixture } from './__fixtures__/smtp-fixture.ts';

const user = 'reader@example.com';

type Result = { isError?: boolean; content?: { text?: string }[]; structuredContent?: Record<string, unknown> };

function textOf(result: Result): string {
  return (result.content ?? []).map((block) => block.text ?? '').join('\n');
}

describe.runIf(serviceGate(dovecotService, it))('OAuth2 for IMAP and SMTP, refreshed', () => {
  let provider: OAuth2Provider;
  let dovecot: DovecotServer;
  let smtp: SmtpFixture;
  let directory: string;
  const instances: EmailInstance[] = [];

  /** A server logging in to this Dovecot and SMTP server with tokens from the provider, through a real client. */
  async function start(kind: TestClientKind = 'v1'): Promise<EmailInstance> {
    const instance = await startEmailInstance(
      {
        from: user,
        smtp: { host: smtp.host, port: smtp.port, security: 'starttls', user, ca: smtp.ca },
        imap: { host: dovecot.host, port: dovecot.imapsPort, security: 'tls', user, ca: dovecot.ca },
        oauth2: {
          tokenUrl: provider.tokenUrl,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          refreshToken: provider.refreshToken,
        },
        state: join(directory, `state-${instances.length}.db`),
        limits: { sendsPerMinute: 100 },
      },
      {},
      kind,
    );
    instances.push(instance);
    return instance;
  }

  const call = async (instance: EmailInstance, name: string, args: Record<string, unknown>) =>
    (await instance.client.callTool(name, args)) as Result;

  const send = (instance: EmailInstance, subject: string) =>
    call(instance, 'send_email', { to: ['alice@example.com'], subject, text: 'Sent with a refreshed token.' });

  /** No secret of the provider's, and no token it issued, in a text. */
  function expectNoSecrets(text: string): void {
    for (const secret of [provider.refreshToken, provider.clientSecret, ...provider.issued]) {
      expect(text).not.toContain(secret);
    }
  }

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-email-oauth2-'));
    provider = await startOAuth2Provider(user);
    dovecot = await startDovecot({ oauth2IntrospectionUrl: provider.introspectionUrl });
    dovecot.deliver('INBOX', [textMessage({ subject: 'Token test', text: 'Hello.' })]);
    smtp = await startSmtpFixture({ user, oauth2: provider });
  }, 60_000);

  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.close();
  });

  afterAll(async () => {
    await smtp?.close();
    await dovecot?.stop();
    await provider?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it.each(['v1', 'v2-legacy', 'v2-modern'] as const)(
    'shares one refreshed token between IMAP and SMTP (%s client)',
    async (kind) => {
      const before = provider.refreshes;
      const instance = await start(kind);
      const sent = await send(instance, 'First');
      expect(sent.isError, textOf(sent)).toBeFalsy();
      const read = await call(instance, 'search_messages', { subject: 'Token test' });
      expect(read.isError, textOf(read)).toBeFalsy();
      expect(read.structuredContent?.total).toBe(1);
      expect(provider.refreshes).toBe(before + 1);
      expect(smtp.logins.at(-1)).toEqual({ user, ok: true });
    },
  );

  it('refreshes a token that expired before its time once, after the refusal, and the call succeeds', async () => {
    const instance = await start('v2-modern');
    expect((await send(instance, 'Warm up')).isError).toBeFalsy();
    const refreshes = provider.refreshes;
    const refusedLogins = provider.refusedIntrospections;

    // Expired at the provider while the server still holds it: IMAP's first login is refused, then refreshed.
    provider.expireIssued();
    const read = await call(instance, 'search_messages', { subject: 'Token test' });
    expect(read.isError, textOf(read)).toBeFalsy();
    expect(provider.refusedIntrospections).toBe(refusedLogins + 1);
    expect(provider.refreshes).toBe(refreshes + 1);

    // And SMTP's: nodemailer asks again with renew once, and the send goes.
    provider.expireIssued();
    const received = smtp.received.length;
    const sent = await send(instance, 'After expiry');
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(smtp.received.length).toBe(received + 1);
    expect(smtp.logins.slice(-2)).toEqual([
      { user, ok: false },
      { user, ok: true },
    ]);
    expect(provider.refreshes).toBe(refreshes + 2);
    expectNoSecrets(textOf(read) + textOf(sent));
  });

  it('refreshes a token close to its expiry before using it, so no login is refused', async () => {
    const instance = await start();
    // Issued with 30 seconds to live: inside the minute before expiry in which a token is not used any more.
    provider.setLifetime(30);
    try {
      expect((await send(instance, 'Short-lived')).isError).toBeFalsy();
      const refreshes = provider.refreshes;
      const logins = smtp.logins.length;
      const sent = await send(instance, 'Refreshed ahead');
      expect(sent.isError, textOf(sent)).toBeFalsy();
      expect(provider.refreshes).toBe(refreshes + 1);
      expect(smtp.logins.slice(logins)).toEqual([{ user, ok: true }]);
    } finally {
      provider.setLifetime(3600);
    }
  });

  it('answers a revoked refresh token with one clear isError, asking the endpoint once per call', async () => {
    const instance = await start();
    provider.revokeRefreshToken();
    const refreshes = provider.refreshes;
    const read = await call(instance, 'search_messages', { subject: 'Token test' });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(
      /OAuth2 token endpoint http:\/\/127\.0\.0\.1:\d+ refused the refresh token, which has expired or been revoked: sign in again and set a new TOOLSHED_EMAIL_OAUTH2_REFRESH_TOKEN \(invalid_grant/,
    );
    expect(provider.refreshes).toBe(refreshes + 1);

    const received = smtp.received.length;
    const sent = await send(instance, 'Never');
    expect(sent.isError).toBe(true);
    expect(textOf(sent)).toMatch(/refused the refresh token/);
    expect(smtp.received.length).toBe(received);
    expect(provider.refreshes).toBe(refreshes + 2);
    expectNoSecrets(textOf(read) + textOf(sent));
  });
});
