import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { startEachTest, textOf } from './__fixtures__/email-harness.ts';
import { startSmtpFixture } from './__fixtures__/smtp-fixture.ts';
import { checkEmailDelivery } from './create-email-server.ts';

const start = startEachTest();

function withAttachments(directory: string): { attachmentsDirectory: string } {
  const attachments = join(directory, 'attachments');
  mkdirSync(join(attachments, 'reports'), { recursive: true });
  writeFileSync(join(attachments, 'notes.txt'), 'Line one\nLine two\n');
  writeFileSync(
    join(attachments, 'reports', 'q3.pdf'),
    Buffer.from('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n', 'latin1'),
  );
  return { attachmentsDirectory: attachments };
}

const fullMessage = {
  to: ['Bob Example <bob@example.com>', 'carol@example.com'],
  cc: 'Dave <dave@example.com>',
  bcc: ['erin@example.com'],
  reply_to: 'team@example.com',
  subject: 'Q3 report — résumé ✓',
  text: 'Hello all,\n\nThe report is attached.\n',
  html: '<p>Hello all,</p><p>The report is <b>attached</b>.</p>',
  in_reply_to: '<thread-1@mail.example.com>',
  references: ['<thread-0@mail.example.com>', 'thread-1@mail.example.com'],
  attachments: ['notes.txt', 'reports/q3.pdf'],
};

describe('send_email over SMTP', () => {
  it('delivers over STARTTLS with AUTH: headers, bodies, threading and attachments arrive as sent', async () => {
    const { call, smtp, asked, specViolations } = await start({ server: withAttachments });
    const result = await call('send_email', fullMessage);
    expect(result.isError).toBeFalsy();
    expect(smtp?.received).toHaveLength(1);
    const [message] = smtp?.received ?? [];
    expect(message?.secure).toBe(true);
    expect(message?.user).toBe('sender@example.com');
    expect(message?.envelope.from).toBe('sender@example.com');
    expect(message?.envelope.to).toEqual([
      'bob@example.com',
      'carol@example.com',
      'dave@example.com',
      'erin@example.com',
    ]);
    const parsed = message?.parsed;
    expect(parsed?.from?.value).toEqual([{ name: 'Assistant', address: 'sender@example.com' }]);
    expect(parsed?.to && !Array.isArray(parsed.to) && parsed.to.value).toEqual([
      { name: 'Bob Example', address: 'bob@example.com' },
      { name: '', address: 'carol@example.com' },
    ]);
    expect(parsed?.cc && !Array.isArray(parsed.cc) && parsed.cc.value).toEqual([
      { name: 'Dave', address: 'dave@example.com' },
    ]);
    expect(parsed?.bcc).toBeUndefined();
    expect(message?.raw.toString('latin1')).not.toMatch(/^bcc:/im);
    expect(parsed?.replyTo?.value).toEqual([{ name: '', address: 'team@example.com' }]);
    expect(parsed?.subject).toBe('Q3 report — résumé ✓');
    expect(parsed?.text).toBe('Hello all,\n\nThe report is attached.\n');
    expect(parsed?.html).toBe('<p>Hello all,</p><p>The report is <b>attached</b>.</p>');
    expect(parsed?.inReplyTo).toBe('<thread-1@mail.example.com>');
    expect(parsed?.references).toEqual(['<thread-0@mail.example.com>', '<thread-1@mail.example.com>']);
    expect(
      parsed?.attachments.map((file) => [file.filename, file.contentType, file.content.toString('latin1')]),
    ).toEqual([
      ['notes.txt', 'text/plain', 'Line one\nLine two\n'],
      ['q3.pdf', 'application/pdf', '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n'],
    ]);
    expect(result.structuredContent).toMatchObject({
      message_id: parsed?.messageId,
      delivery: 'smtp',
      accepted: ['bob@example.com', 'carol@example.com', 'dave@example.com', 'erin@example.com'],
      rejected: [],
      replayed: false,
    });
    // The SMTP server's copy differs only by the line ending the DATA stream adds.
    expect(Math.abs(Number(result.structuredContent?.size_bytes) - (message?.raw.length ?? 0))).toBeLessThanOrEqual(4);
    expect(parsed?.messageId).toMatch(/^<[0-9a-f-]{36}@example\.com>$/);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('To: Bob Example <bob@example.com>, carol@example.com');
    expect(asked[0]).toContain('Cc: Dave <dave@example.com>');
    expect(asked[0]).toContain('Bcc: erin@example.com');
    expect(asked[0]).toContain('Reply-To: team@example.com');
    expect(asked[0]).toContain('Subject: Q3 report — résumé ✓');
    expect(asked[0]).toContain('Attachments: notes.txt (18 bytes), q3.pdf (23 bytes)');
    expect(specViolations()).toEqual([]);
  });

  it('delivers over implicit TLS (port 465 style)', async () => {
    const { call, smtp } = await start({ smtp: { security: 'tls' } });
    const result = await call('send_email', {
      to: 'bob@example.com',
      subject: 'Over TLS',
      text: 'Encrypted from the first byte',
    });
    expect(result.isError).toBeFalsy();
    expect(smtp?.received[0]?.secure).toBe(true);
    expect(smtp?.received[0]?.parsed.text).toBe('Encrypted from the first byte\n');
  });

  it('reports recipients the server refused while the others receive the message', async () => {
    const { call, smtp } = await start({
      smtp: { rejectRecipients: { 'gone@example.com': '5.1.1 Mailbox does not exist' } },
    });
    const result = await call('send_email', { to: ['bob@example.com', 'gone@example.com'], subject: 'Hi', text: 'x' });
    expect(result.isError).toBeFalsy();
    expect(smtp?.received[0]?.envelope.to).toEqual(['bob@example.com']);
    expect(result.structuredContent).toMatchObject({
      accepted: ['bob@example.com'],
      rejected: [{ address: 'gone@example.com', reason: expect.stringMatching(/Mailbox does not exist/) }],
    });
    expect(textOf(result)).toMatch(/Refused by the server: gone@example\.com/);
  });

  it('says nothing was sent when every recipient is refused, or the server refuses the message', async () => {
    const { call, smtp } = await start({ smtp: { rejectRecipients: { 'gone@example.com': 'No such user' } } });
    const refused = await call('send_email', { to: 'gone@example.com', subject: 'Hi', text: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/did not take the message.*No such user.*Nothing was sent/s);
    smtp?.failNextData(552, '5.3.4 Message too big for system');
    const tooBig = await call('send_email', { to: 'bob@example.com', subject: 'Hi', text: 'x' });
    expect(tooBig.isError).toBe(true);
    expect(textOf(tooBig)).toMatch(/Message too big for system.*Nothing was sent/);
    const after = await call('send_email', { to: 'bob@example.com', subject: 'Still up', text: 'x' });
    expect(after.isError).toBeFalsy();
    expect(smtp?.received.map((message) => message.parsed.subject)).toEqual(['Still up']);
  });

  it('says the outcome is unknown when the server goes quiet after the message, and a retry with the key sends nothing', async () => {
    const { call, smtp, log } = await start({ server: () => ({ limits: { smtpTimeoutMs: 400 } }) });
    smtp?.hangAfterNextData();
    const message = { to: 'bob@example.com', subject: 'Maybe', text: 'x', idempotency_key: 'order-1234-confirmation' };
    const first = await call('send_email', message);
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/Outcome unknown: .* it may have been sent/);
    const retry = await call('send_email', message);
    expect(retry.isError).toBe(true);
    expect(textOf(retry)).toMatch(/Outcome unknown: .* it may have been sent/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(smtp?.received).toHaveLength(1);
    expect(log.map((entry) => entry.event)).toEqual(['uncertain']);
  });

  it('stops before sending when the call is cancelled while the user is being asked', async () => {
    const { call, smtp, client } = await start();
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const controller = new AbortController();
    client.setRequestHandler(ElicitRequestSchema, async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { action: 'accept', content: { confirmed: true } };
    });
    await expect(
      call('send_email', { to: 'bob@example.com', subject: 'Cancelled', text: 'x' }, { signal: controller.signal }),
    ).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp?.received).toHaveLength(0);
  });
});

describe('outbox mode', () => {
  it('writes a standard .eml file that parses the same way, and sends nothing', async () => {
    const { call, directory, specViolations } = await start({ smtp: false, server: withAttachments });
    const result = await call('send_email', fullMessage);
    expect(result.isError).toBeFalsy();
    const outbox = join(directory, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f-]{8}\.eml$/);
    expect(result.structuredContent).toMatchObject({ delivery: 'outbox', outbox_file: files[0], replayed: false });
    expect(textOf(result)).toMatch(/Written to the outbox .* \(not sent: no SMTP server is configured\)/);
    const parsed = await simpleParser(readFileSync(join(outbox, files[0] ?? '')));
    expect(parsed.subject).toBe('Q3 report — résumé ✓');
    expect(parsed.from?.value).toEqual([{ name: 'Assistant', address: 'sender@example.com' }]);
    expect(parsed.inReplyTo).toBe('<thread-1@mail.example.com>');
    expect(parsed.references).toEqual(['<thread-0@mail.example.com>', '<thread-1@mail.example.com>']);
    expect(parsed.text).toBe('Hello all,\n\nThe report is attached.\n');
    expect(parsed.attachments.map((file) => file.filename)).toEqual(['notes.txt', 'q3.pdf']);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.messageId).toBe(result.structuredContent?.message_id);
    expect(specViolations()).toEqual([]);
  });

  it('defaults the sender and keeps the allowlist rule: only the sender itself', async () => {
    const { call } = await start({ smtp: false, server: () => ({ from: undefined, allowRecipients: [] }) });
    const self = await call('send_email', { to: 'outbox@toolshed.invalid', subject: 'Note to self', text: 'x' });
    expect(self.isError).toBeFalsy();
    const other = await call('send_email', { to: 'bob@example.com', subject: 'Hi', text: 'x' });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/with no allowlist configured, mail goes only to outbox@toolshed\.invalid/);
  });
});

describe('preview_email', () => {
  it('shows the exact message without sending or asking', async () => {
    const { call, smtp, asked } = await start({ server: withAttachments });
    const preview = await call('preview_email', fullMessage);
    expect(preview.isError).toBeFalsy();
    const content = preview.structuredContent ?? {};
    expect(content).toMatchObject({
      would_send: true,
      blocked_by: [],
      needs_confirmation: true,
      delivery: 'smtp',
      from: 'Assistant <sender@example.com>',
      to: ['Bob Example <bob@example.com>', 'carol@example.com'],
      bcc: ['erin@example.com'],
      reply_to: 'team@example.com',
      text: fullMessage.text,
      html: fullMessage.html,
      attachments: [
        { name: 'notes.txt', size_bytes: 18, content_type: 'text/plain' },
        { name: 'q3.pdf', size_bytes: 23, content_type: 'application/pdf' },
      ],
    });
    const headers = content.headers as { name: string; value: string }[];
    expect(headers.map((header) => header.name)).toEqual(
      expect.arrayContaining([
        'From',
        'To',
        'Cc',
        'Reply-To',
        'Subject',
        'In-Reply-To',
        'References',
        'Message-ID',
        'Date',
      ]),
    );
    expect(headers.some((header) => /^bcc$/i.test(header.name))).toBe(false);
    expect(smtp?.received).toHaveLength(0);
    expect(asked).toHaveLength(0);
    const sent = await call('send_email', fullMessage);
    // Only the Message-ID and Date are new at sending; both keep their length give or take a digit of the day.
    expect(Math.abs(Number(sent.structuredContent?.size_bytes) - Number(content.size_bytes))).toBeLessThanOrEqual(2);
  });

  it('lists every check that would block the message, each with its field', async () => {
    const { call } = await start();
    const preview = await call('preview_email', {
      to: ['eve@evil.test', 'not an address'],
      subject: 'Hello\r\nBcc: eve@evil.test',
      text: 'x',
      in_reply_to: 'no-brackets-or-at',
      attachments: ['a.txt'],
    });
    expect(preview.isError).toBeFalsy();
    expect(preview.structuredContent).toMatchObject({ would_send: false, size_bytes: null });
    expect(
      ((preview.structuredContent?.blocked_by ?? []) as { check: string; field: string }[]).map((item) => [
        item.field,
        item.check,
      ]),
    ).toEqual([
      ['to[0]', 'allowlist'],
      ['to[1]', 'address_syntax'],
      ['subject', 'header_characters'],
      ['in_reply_to', 'threading'],
      ['attachments', 'attachment'],
    ]);
    expect(textOf(preview)).toMatch(/send_email would refuse this message/);
  });
});

describe('the send log', () => {
  it.each([
    ['hash', /^sha256:[0-9a-f]{16}$/],
    ['domain', /^…@example\.com$/],
    ['full', /^Bob@example\.com$/],
  ] as const)('shows recipients as %s', async (logRecipients, form) => {
    const { call, log } = await start({ smtp: false, server: () => ({ logRecipients }) });
    await call('send_email', { to: 'Bob@Example.com', subject: 'Logged', text: 'x' });
    await call('send_email', { to: 'eve@evil.test', subject: 'Refused', text: 'x' });
    expect(log.map((entry) => entry.event)).toEqual(['sent', 'refused']);
    expect(log[0]?.recipients).toHaveLength(1);
    expect(log[0]?.recipients[0]).toMatch(form);
    expect(log[0]).toMatchObject({ delivery: 'outbox', attachments: 0, messageId: expect.stringMatching(/^</) });
    expect(JSON.stringify(log)).not.toMatch(/Logged|Refused/);
    if (logRecipients !== 'full') expect(JSON.stringify(log)).not.toMatch(/bob@|eve@/i);
    else expect(log[1]?.recipients).toEqual(['eve@evil.test']);
  });

  it('hashes the same mailbox the same way whatever its case', async () => {
    const { call, log } = await start({ smtp: false });
    await call('send_email', { to: 'Bob@Example.com', subject: 'One', text: 'x' });
    await call('send_email', { to: 'bob@example.com', subject: 'Two', text: 'x' });
    expect(log[0]?.recipients).toEqual(log[1]?.recipients);
  });
});

describe('checkEmailDelivery (the bin runs it before serving)', () => {
  it('passes with the right login and certificate', async () => {
    const smtp = await startSmtpFixture();
    try {
      await expect(
        checkEmailDelivery({
          from: 'sender@example.com',
          smtp: {
            host: smtp.host,
            port: smtp.port,
            user: 'sender@example.com',
            password: 'correct horse battery staple',
            ca: smtp.ca,
          },
        }),
      ).resolves.toBeUndefined();
    } finally {
      await smtp.close();
    }
  });

  it.each([
    ['a wrong password', { password: 'wrong' }, /refused the login; check the user and TOOLSHED_EMAIL_SMTP_PASSWORD/],
    ['an untrusted certificate', { ca: undefined }, /cannot be used: .*certificate/i],
    ['no STARTTLS where it is required', { fixture: 'none' as const }, /STARTTLS/],
    ['nothing listening', { port: 1 }, /SMTP server 127\.0\.0\.1:1 cannot be used/],
  ])('fails fast with what to fix for %s', async (_name, change, message) => {
    const smtp = await startSmtpFixture({ security: 'fixture' in change ? change.fixture : 'starttls' });
    try {
      const smtpOptions = {
        host: smtp.host,
        port: 'port' in change ? change.port : smtp.port,
        user: 'sender@example.com',
        password: 'password' in change ? change.password : 'correct horse battery staple',
        ...('ca' in change ? {} : { ca: smtp.ca }),
      };
      const failure = await checkEmailDelivery({ from: 'sender@example.com', smtp: smtpOptions }).catch(
        (error: Error) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(message);
      expect((failure as { code?: string }).code).toBe('config_invalid');
    } finally {
      await smtp.close();
    }
  });
});
