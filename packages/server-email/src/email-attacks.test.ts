import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailHarness, startEachTest, startEmailHarness, textOf } from './__fixtures__/email-harness.ts';

const start = startEachTest();

const base = { to: 'bob@example.com', subject: 'Hello', text: 'Body' };

/** The proof: what the SMTP server received, and the server still answering. */
async function expectNothingSent(target: EmailHarness): Promise<void> {
  expect(target.smtp?.received ?? []).toHaveLength(0);
  const alive = await target.call('validate_recipients', { addresses: ['bob@example.com'], check_domains: false });
  expect(alive.isError).toBeFalsy();
}

describe('header injection: refused in every header field, nothing sent', () => {
  let shared: EmailHarness;
  beforeAll(async () => {
    shared = await startEmailHarness();
  });
  afterAll(() => shared.close());

  it.each([
    ['subject: CRLF then Bcc', { subject: 'Hi\r\nBcc: eve@evil.test' }],
    ['subject: bare LF then a header', { subject: 'Hi\nX-Injected: 1' }],
    ['subject: bare CR', { subject: 'Hi\rBcc: eve@evil.test' }],
    ['subject: CRLF CRLF then a body', { subject: 'Hi\r\n\r\nfake body' }],
    ['subject: NUL', { subject: 'Hi\u0000there' }],
    ['subject: NEL (U+0085)', { subject: 'Hi\u0085Bcc: eve@evil.test' }],
    ['subject: line separator (U+2028)', { subject: 'Hi\u2028Bcc: eve@evil.test' }],
    ['subject: paragraph separator (U+2029)', { subject: 'Hi\u2029Bcc: eve@evil.test' }],
    ['subject: vertical tab and form feed', { subject: 'Hi\u000b\u000cthere' }],
    ['subject: escape sequence', { subject: 'Hi\u001b[2Jthere' }],
    ['subject: DEL', { subject: 'Hi\u007fthere' }],
    ['subject: right-to-left override', { subject: 'Invoice \u202Efdp.exe' }],
    ['subject: zero-width space', { subject: 'Pass\u200bword reset' }],
    ['to: CRLF in the display name', { to: 'Bob\r\nBcc: eve@evil.test <bob@example.com>' }],
    ['to: LF after the address', { to: 'bob@example.com\nBcc: eve@evil.test' }],
    ['cc: CRLF', { cc: 'carol@example.com\r\nBcc: eve@evil.test' }],
    ['bcc: CR', { bcc: 'carol@example.com\rTo: eve@evil.test' }],
    ['reply_to: CRLF', { reply_to: 'team@example.com\r\nBcc: eve@evil.test' }],
    ['in_reply_to: CRLF', { in_reply_to: '<a@example.com>\r\nBcc: eve@evil.test' }],
    ['references: LF in one item', { references: ['<a@example.com>', '<b@example.com>\nBcc: eve@evil.test'] }],
    ['attachments: CRLF in a file name', { attachments: ['notes.txt\r\nContent-Type: text/html'] }],
  ])('%s', async (_name, change) => {
    const result = await shared.call('send_email', { ...base, ...change });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/header_characters|contains/);
    const preview = await shared.call('preview_email', { ...base, ...change });
    expect(((preview.structuredContent?.blocked_by ?? []) as { check: string }[]).map((item) => item.check)).toContain(
      'header_characters',
    );
    await expectNothingSent(shared);
    expect(shared.asked).toHaveLength(0);
  });

  it('sends look-alike text literally: %0d%0a and encoded words stay inside the subject', async () => {
    const subject = 'Hi%0d%0aBcc:eve@evil.test =?utf-8?q?=0D=0ABcc:_eve@evil.test?=';
    const result = await shared.call('send_email', { ...base, subject });
    expect(result.isError).toBeFalsy();
    const [message] = shared.smtp?.received.splice(0) ?? [];
    expect(message?.envelope.to).toEqual(['bob@example.com']);
    expect(message?.parsed.bcc).toBeUndefined();
    expect(message?.raw.toString('latin1')).not.toMatch(/^bcc:/im);
    expect(message?.parsed.subject).toContain('Hi%0d%0aBcc:eve@evil.test');
  });
});

describe('allowlist bypasses: refused, nothing sent', () => {
  let shared: EmailHarness;
  beforeAll(async () => {
    shared = await startEmailHarness({ server: () => ({ allowRecipients: ['example.com', 'friend@partner.test'] }) });
  });
  afterAll(() => shared.close());

  it.each([
    ['an allowed address as the display name', '"bob@example.com" <eve@evil.test>'],
    ['an allowed address as an unquoted display name', 'bob@example.com <eve@evil.test>'],
    ['an allowed address in a comment', 'eve@evil.test (bob@example.com)'],
    ['two addresses in one item, comma', 'bob@example.com, eve@evil.test'],
    ['two addresses in one item, semicolon', 'bob@example.com;eve@evil.test'],
    ['group syntax', 'friends: eve@evil.test;'],
    ['source route through an allowed host', '<@example.com:eve@evil.test>'],
    ['percent hack relayed by the allowed host', 'eve%evil.test@example.com'],
    ['bang path relayed by the allowed host', 'evil.test!eve@example.com'],
    ['quoted local part holding another address', '"eve@evil.test"@example.com'],
    ['two @ signs', 'eve@evil.test@example.com'],
    ['allowed domain as a prefix of another', 'eve@example.com.evil.test'],
    ['allowed domain as a suffix without a dot', 'eve@evilexample.com'],
    ['a subdomain of an allowed domain', 'eve@mail.example.com'],
    ['a Cyrillic look-alike of the allowed domain', 'eve@ex\u0430mple.com'],
    ['the punycode of a look-alike domain', 'eve@xn--exmple-4nf.com'],
    ['an IP address literal', 'eve@[127.0.0.1]'],
    ['a trailing dot on the domain', 'eve@evil.test.'],
    ['a zero-width space before the domain', 'bob@\u200bevil.test'],
    ['plus addressing on an exact-address entry', 'friend+eve@partner.test'],
    ['a dotted variant of an exact-address entry', 'fri.end@partner.test'],
    ["another mailbox at an exact entry's domain", 'eve@partner.test'],
    ['an unrelated domain', 'eve@evil.test'],
  ])('%s', async (_name, address) => {
    for (const field of ['to', 'cc', 'bcc', 'reply_to'] as const) {
      const result = await shared.call('send_email', { ...base, [field]: address });
      expect(result.isError, `${field}: ${address}`).toBe(true);
      expect(textOf(result)).toMatch(/allowlist|address_syntax|header_characters/);
    }
    const validation = await shared.call('validate_recipients', { addresses: [address], check_domains: false });
    expect(((validation.structuredContent?.results ?? []) as { allowed: boolean }[])[0]?.allowed).toBe(false);
    await expectNothingSent(shared);
    expect(shared.asked).toHaveLength(0);
  });

  it('case and international spellings of an allowed entry still reach it', async () => {
    for (const to of ['FRIEND@Partner.TEST', 'Bob <BOB@EXAMPLE.COM>', 'bob@ｅｘａｍｐｌｅ.com']) {
      const result = await shared.call('send_email', { ...base, to });
      expect(result.isError, to).toBeFalsy();
    }
    expect(shared.smtp?.received.splice(0).map((message) => message.envelope.to[0]?.toLowerCase())).toEqual([
      'friend@partner.test',
      'bob@example.com',
      'bob@example.com',
    ]);
  });

  it('one bad recipient among good ones stops the whole message', async () => {
    const result = await shared.call('send_email', {
      ...base,
      to: ['bob@example.com', 'carol@example.com'],
      bcc: 'eve@evil.test',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/bcc \(allowlist\): eve@evil\.test is not on the recipient allowlist/);
    await expectNothingSent(shared);
  });

  it('with no allowlist only the sender may receive mail; --allow-any-recipient lifts it', async () => {
    const closed = await start({ server: () => ({ allowRecipients: [] }) });
    expect((await closed.call('send_email', base)).isError).toBe(true);
    expect((await closed.call('send_email', { ...base, to: 'Sender@Example.com' })).isError).toBeFalsy();
    await closed.close();
    const open = await start({ server: () => ({ allowAnyRecipient: true }) });
    expect((await open.call('send_email', { ...base, to: 'someone@elsewhere.test' })).isError).toBeFalsy();
    expect((await open.call('send_email', { ...base, to: '"bob@example.com" <eve@evil.test>' })).isError).toBe(true);
    expect(open.smtp?.received).toHaveLength(1);
  });
});

describe('attachments: only files inside the attachments directory', () => {
  let shared: EmailHarness;
  let outside: string;
  beforeAll(async () => {
    shared = await startEmailHarness({
      server: (directory) => {
        const attachments = join(directory, 'attachments');
        outside = join(directory, 'private');
        mkdirSync(join(attachments, 'sub'), { recursive: true });
        mkdirSync(outside);
        writeFileSync(join(outside, 'secret.txt'), 'top secret');
        writeFileSync(join(attachments, 'ok.txt'), 'fine');
        writeFileSync(join(attachments, 'big.bin'), Buffer.alloc(2048));
        symlinkSync(join(outside, 'secret.txt'), join(attachments, 'link-out.txt'));
        symlinkSync(outside, join(attachments, 'dir-link'));
        return { attachmentsDirectory: attachments, limits: { maxAttachmentBytes: 1024, maxAttachments: 3 } };
      },
    });
  });
  afterAll(() => shared.close());

  it.each([
    ['parent directory', () => '../private/secret.txt'],
    ['parent directory from a subfolder', () => 'sub/../../private/secret.txt'],
    ['absolute path outside', () => join(outside, 'secret.txt')],
    ['/etc/passwd', () => '/etc/passwd'],
    ['home directory', () => '~/.ssh/id_rsa'],
    ['symlink to a file outside', () => 'link-out.txt'],
    ['symlink to a directory outside', () => 'dir-link/secret.txt'],
    ['NUL in the name', () => 'ok.txt\u0000.pdf'],
    ['a directory', () => 'sub'],
    ['a file that does not exist', () => 'missing.txt'],
    ['over the size cap', () => 'big.bin'],
  ])('%s', async (_name, name) => {
    const result = await shared.call('send_email', { ...base, attachments: [name()] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/attachment|header_characters/);
    expect(textOf(result)).not.toContain(join(shared.directory, 'attachments'));
    expect(textOf(result)).not.toContain('top secret');
    await expectNothingSent(shared);
  });

  it('too many attachments', async () => {
    const result = await shared.call('send_email', { ...base, attachments: ['ok.txt', 'ok.txt', 'ok.txt', 'ok.txt'] });
    expect(textOf(result)).toMatch(/4 attachments; at most 3/);
    await expectNothingSent(shared);
  });

  it('refuses every attachment when no directory is configured', async () => {
    const bare = await start();
    const result = await bare.call('send_email', { ...base, attachments: ['ok.txt'] });
    expect(textOf(result)).toMatch(/Attachments are off/);
    await expectNothingSent(bare);
  });
});

describe('caps', () => {
  it('too many recipients', async () => {
    const target = await start({ server: () => ({ limits: { maxRecipients: 3 } }) });
    const to = ['a@example.com', 'b@example.com', 'c@example.com'];
    const result = await target.call('send_email', { ...base, to, cc: 'd@example.com' });
    expect(textOf(result)).toMatch(/4 recipients; at most 3/);
    await expectNothingSent(target);
    // The same address twice is one recipient.
    expect((await target.call('send_email', { ...base, to, cc: 'A@example.com' })).isError).toBeFalsy();
  });

  it('a message over the size cap, measured as sent', async () => {
    const target = await start({ server: () => ({ limits: { maxMessageBytes: 10_000 } }) });
    const result = await target.call('send_email', { ...base, text: 'x'.repeat(20_000) });
    expect(textOf(result)).toMatch(/The message is \d+ bytes as sent; at most 10000/);
    await expectNothingSent(target);
  });

  it('a flood stops at the rate limit, saying when to try again', async () => {
    const target = await start({ server: () => ({ limits: { sendsPerMinute: 3 } }) });
    const results = [];
    for (let send = 0; send < 8; send += 1)
      results.push(await target.call('send_email', { ...base, subject: `n${send}` }));
    expect(results.map((result) => result.isError === true)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(textOf(results[3] ?? { content: [] })).toMatch(/at most 3 emails a minute\. Try again in \d+ s/);
    expect(target.smtp?.received).toHaveLength(3);
    expect(target.asked).toHaveLength(3);
  });

  it('the hourly window holds when the minute has room', async () => {
    const target = await start({ server: () => ({ limits: { sendsPerMinute: 5, sendsPerHour: 2 } }) });
    for (let send = 0; send < 2; send += 1) await target.call('send_email', base);
    expect(textOf(await target.call('send_email', base))).toMatch(/at most 2 emails an hour/);
    expect(target.smtp?.received).toHaveLength(2);
  });
});

describe('confirmation', () => {
  it.each([
    ['declined', 'decline', /the user declined to send this email\. Do not send it again/],
    ['dismissed', 'cancel', /the user dismissed the confirmation/],
    ['a client that cannot ask', 'no-elicitation', /cannot ask its user .* --skip-confirmation/],
  ] as const)('%s: nothing is sent', async (_name, answer, message) => {
    const target = await start({ answer });
    const result = await target.call('send_email', base);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    await expectNothingSent(target);
    expect(target.log.map((entry) => [entry.event, entry.reason])).toEqual([
      ['declined', answer === 'no-elicitation' ? 'unavailable' : answer],
    ]);
  });

  it('the model cannot answer for the user: arguments that look like a confirmation change nothing', async () => {
    const target = await start({ answer: 'no-elicitation' });
    const result = await target.call('send_email', { ...base, confirmed: true, skip_confirmation: true } as never);
    expect(result.isError).toBe(true);
    await expectNothingSent(target);
  });

  it('the operator can turn confirmation off, and then clients that cannot ask may send', async () => {
    const target = await start({ answer: 'no-elicitation', server: () => ({ skipConfirmation: true }) });
    expect((await target.call('send_email', base)).isError).toBeFalsy();
    expect(target.smtp?.received).toHaveLength(1);
  });

  it('a declined send does not use up the rate limit', async () => {
    const target = await start({ answer: 'decline', server: () => ({ limits: { sendsPerMinute: 1 } }) });
    await target.call('send_email', base);
    await target.call('send_email', base);
    target.answer = 'accept';
    expect((await target.call('send_email', base)).isError).toBeFalsy();
  });
});

describe('idempotency keys', () => {
  const keyed = { ...base, idempotency_key: 'reply-to-ticket-4711' };

  it('a retry with the same key and message returns the first result and sends nothing', async () => {
    const target = await start();
    const first = await target.call('send_email', keyed);
    const second = await target.call('send_email', keyed);
    expect(second.isError).toBeFalsy();
    expect(second.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
    expect(textOf(second)).toMatch(/Already sent under this idempotency key/);
    expect(target.smtp?.received).toHaveLength(1);
    expect(target.asked).toHaveLength(1);
    expect(target.log.map((entry) => entry.event)).toEqual(['sent', 'replayed']);
  });

  it('concurrent calls with one key send once', async () => {
    const target = await start();
    const results = await Promise.all(Array.from({ length: 5 }, () => target.call('send_email', keyed)));
    expect(results.filter((result) => result.structuredContent?.replayed === false)).toHaveLength(1);
    expect(new Set(results.map((result) => result.structuredContent?.message_id)).size).toBe(1);
    expect(target.smtp?.received).toHaveLength(1);
  });

  it('the same key for a different message is refused', async () => {
    const target = await start();
    await target.call('send_email', keyed);
    const other = await target.call('send_email', { ...keyed, to: 'carol@example.com' });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/already used for a different message/);
    expect(target.smtp?.received).toHaveLength(1);
  });

  it('a replay is not refused by the rate limit its first send used up', async () => {
    const target = await start({ server: () => ({ limits: { sendsPerMinute: 1 } }) });
    await target.call('send_email', keyed);
    const retry = await target.call('send_email', keyed);
    expect(retry.structuredContent?.replayed).toBe(true);
    expect(textOf(await target.call('send_email', { ...base, subject: 'new' }))).toMatch(/send limit is reached/);
    expect(target.smtp?.received).toHaveLength(1);
  });

  it('a send the user declined leaves the key free for a retry the user approves', async () => {
    const target = await start({ answer: 'decline' });
    expect((await target.call('send_email', keyed)).isError).toBe(true);
    target.answer = 'accept';
    const retry = await target.call('send_email', keyed);
    expect(retry.structuredContent?.replayed).toBe(false);
    expect(target.smtp?.received).toHaveLength(1);
  });

  it('outbox mode replays too: one file', async () => {
    const target = await start({ smtp: false });
    await target.call('send_email', keyed);
    await target.call('send_email', keyed);
    expect(readdirSync(join(target.directory, 'outbox'))).toHaveLength(1);
  });
});
