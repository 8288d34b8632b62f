import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient, serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, imapOptions, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness, textOf } from './__fixtures__/email-harness.ts';
import { messageWithAttachments, textMessage } from './__fixtures__/sample-messages.ts';
import { createEmailServer } from './create-email-server.ts';

type Hit = { uid: number; subject: string };

const lunch = textMessage({
  from: 'Alice <alice@example.com>',
  to: 'reader@example.com',
  subject: 'Lunch on Friday',
  text: 'Shall we meet at noon?\nThe usual place.',
  messageId: '<lunch-1@example.com>',
  headers: ['Cc: bob@example.com, Carol <carol@outside.test>'],
});

const lunchAnswer = textMessage({
  from: 'Bob <bob@example.com>',
  to: 'alice@example.com, reader@example.com',
  subject: 'Re: Lunch on Friday',
  text: 'Noon is fine by me.',
  messageId: '<lunch-2@example.com>',
  headers: ['In-Reply-To: <lunch-1@example.com>', 'References: <lunch-1@example.com>'],
});

const unrelated = textMessage({ subject: 'Weekly digest', text: 'Nothing to do with lunch.' });

/** Messages whose headers try to widen a reply: each row is a message, the reply asked for, and what must happen. */
const replyAttacks: {
  name: string;
  message: string;
  replyAll: boolean;
  outcome: { refused: RegExp } | { envelope: string[]; note?: RegExp };
}[] = [
  {
    name: 'Reply-To pointing outside the allowlist',
    message: textMessage({
      from: 'Boss <boss@example.com>',
      subject: 'Wire the money',
      text: 'Reply with the account details.',
      headers: ['Reply-To: Boss <eve@attacker.test>'],
    }),
    replyAll: false,
    outcome: { refused: /eve@attacker\.test is not on the recipient allowlist \(taken from the Reply-To or From/ },
  },
  {
    name: 'a To list with hundreds of addresses',
    message: textMessage({
      from: 'Mass <mass@example.com>',
      to: Array.from({ length: 300 }, (_, index) => `person${index}@example.com`).join(', '),
      subject: 'Everyone',
      text: 'Reply all, please.',
    }),
    replyAll: true,
    outcome: { refused: /recipient_count\): 301 recipients; at most 20/ },
  },
  {
    name: 'a folded Cc hiding an outside address on its continuation line',
    message: textMessage({
      from: 'Dan <dan@example.com>',
      subject: 'Folded',
      text: 'Hi.',
      headers: ['Cc: bob@example.com,\r\n eve@attacker.test'],
    }),
    replyAll: true,
    outcome: {
      envelope: ['dan@example.com', 'bob@example.com'],
      note: /Left out of the reply-all.*eve@attacker\.test/,
    },
  },
  {
    name: 'an encoded display name posing as an allowed address',
    message: textMessage({
      from: 'Dan <dan@example.com>',
      to: '"=?utf-8?q?alice=40example=2Ecom?=" <eve@attacker.test>',
      subject: 'Posing',
      text: 'Hi.',
    }),
    replyAll: true,
    outcome: { envelope: ['dan@example.com'], note: /eve@attacker\.test/ },
  },
  {
    name: 'a group in Cc with an outside member',
    message: textMessage({
      from: 'Dan <dan@example.com>',
      subject: 'Group',
      text: 'Hi.',
      headers: ['Cc: friends: eve@attacker.test, carl@example.com;'],
    }),
    replyAll: true,
    outcome: { envelope: ['dan@example.com', 'carl@example.com'], note: /eve@attacker\.test/ },
  },
  {
    name: 'a From whose encoded name carries a line break and a Bcc',
    message: textMessage({
      from: '=?utf-8?q?Frank=0D=0ABcc=3A_eve=40attacker=2Etest?= <frank@example.com>',
      subject: 'Injected',
      text: 'Hi.',
    }),
    replyAll: false,
    outcome: { envelope: ['frank@example.com'] },
  },
];

describe.runIf(serviceGate(dovecotService, it))('replies, forwards and threads', () => {
  let dovecot: DovecotServer;
  let harness: EmailHarness;

  async function uidOf(subject: string, mailbox = 'INBOX'): Promise<number> {
    const result = await harness.call('search_messages', { mailbox, subject });
    const hits = result.structuredContent?.messages as Hit[];
    const hit = hits.find((item) => item.subject === subject);
    if (hit === undefined) throw new Error(`no message "${subject}" in ${mailbox}`);
    return hit.uid;
  }

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver('INBOX', [lunch, lunchAnswer, unrelated, ...replyAttacks.map((attack) => attack.message)]);
    dovecot.deliver('INBOX', [
      messageWithAttachments({
        subject: 'Invoice April',
        text: 'The invoice is attached.',
        attachments: [
          { filename: 'invoice-2026-04.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 april') },
        ],
      }),
      messageWithAttachments({
        subject: 'Scans',
        text: 'Big scans.',
        attachments: [{ filename: 'scan.bin', content: Buffer.alloc(5000, 7) }],
      }),
    ]);
    harness = await startEmailHarness({
      server: (directory) => {
        mkdirSync(join(directory, 'attachments'));
        writeFileSync(join(directory, 'attachments', 'notes.txt'), 'my notes');
        return {
          imap: imapOptions(dovecot),
          attachmentsDirectory: join(directory, 'attachments'),
          allowMailboxChanges: true,
          limits: { maxAttachmentBytes: 4096, sendsPerMinute: 100, sendsPerHour: 1000 },
        };
      },
    });
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
    await dovecot?.stop();
  });

  it('replies: to the sender, Re: subject, In-Reply-To and References, the original quoted, once per key', async () => {
    const uid = await uidOf('Lunch on Friday');
    const before = harness.smtp?.received.length ?? 0;
    const args = { reply_to_uid: uid, text: 'Noon works.', idempotency_key: 'reply-lunch-0001' };
    const result = await harness.call('send_email', args);
    expect(result.isError, textOf(result)).toBeFalsy();
    const received = harness.smtp?.received.at(-1);
    expect(received?.envelope.to).toEqual(['alice@example.com']);
    expect(received?.parsed.subject).toBe('Re: Lunch on Friday');
    expect(received?.parsed.inReplyTo).toBe('<lunch-1@example.com>');
    expect(received?.parsed.references).toBe('<lunch-1@example.com>');
    expect(received?.parsed.text).toContain('Noon works.');
    expect(received?.parsed.text).toMatch(/wrote:\n> Shall we meet at noon\?\n> The usual place\./);
    expect(harness.asked.at(-1)).toMatch(/To: (Alice )?<?alice@example\.com>?\nSubject: Re: Lunch on Friday/);

    const again = await harness.call('send_email', args);
    expect(again.structuredContent?.replayed).toBe(true);
    expect(harness.smtp?.received.length).toBe(before + 1);
  });

  it('replies to all: the allowed ones in Cc, this account left out, the rest dropped with a note', async () => {
    const uid = await uidOf('Lunch on Friday');
    const result = await harness.call('send_email', { reply_to_uid: uid, reply_all: true, text: 'See you all.' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(harness.smtp?.received.at(-1)?.envelope.to).toEqual(['alice@example.com', 'bob@example.com']);
    expect(textOf(result)).toMatch(/Left out of the reply-all, not on the recipient allowlist: carol@outside\.test\./);
  });

  it('threads a reply to a reply: References keep the whole chain, oldest first', async () => {
    const uid = await uidOf('Re: Lunch on Friday');
    const result = await harness.call('send_email', { reply_to_uid: uid, text: 'Agreed.' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const parsed = harness.smtp?.received.at(-1)?.parsed;
    expect(parsed?.subject).toBe('Re: Lunch on Friday');
    expect(parsed?.references).toEqual(['<lunch-1@example.com>', '<lunch-2@example.com>']);
    expect(harness.smtp?.received.at(-1)?.envelope.to).toEqual(['bob@example.com']);
  });

  it.each(replyAttacks.map((attack) => [attack.name, attack] as const))('attack: %s', async (_name, attack) => {
    const uid = await uidOf(subjectOf(attack.message));
    const before = harness.smtp?.received.length ?? 0;
    const result = await harness.call('send_email', { reply_to_uid: uid, reply_all: attack.replyAll, text: 'Ok.' });
    if ('refused' in attack.outcome) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(attack.outcome.refused);
      expect(harness.smtp?.received.length).toBe(before);
      return;
    }
    expect(result.isError, textOf(result)).toBeFalsy();
    const received = harness.smtp?.received.at(-1);
    expect(received?.envelope.to).toEqual(attack.outcome.envelope);
    // The quote line may name what the sender wrote; the header block never carries it.
    const headerBlock = received?.raw.toString('latin1').split('\r\n\r\n')[0] ?? '';
    expect(headerBlock).not.toMatch(/attacker|^Bcc:/im);
    if (attack.outcome.note !== undefined) expect(textOf(result)).toMatch(attack.outcome.note);
  });

  it('previews a reply without sending: the quoted mail fenced, the notes said', async () => {
    const uid = await uidOf('Lunch on Friday');
    const before = harness.smtp?.received.length ?? 0;
    const result = await harness.call('preview_email', { reply_to_uid: uid, reply_all: true, text: 'Maybe.' });
    expect(result.structuredContent).toMatchObject({
      would_send: true,
      to: ['alice@example.com'],
      cc: ['bob@example.com'],
    });
    expect(result.structuredContent?.notes).toEqual([
      'Left out of the reply-all, not on the recipient allowlist: carol@outside.test.',
    ]);
    const mirror = result.content[0]?.text ?? '';
    const fenced = /^Text inside the (untrusted-mail-[0-9a-f]{16}) markers[^\n]*\n<\1>\n([\s\S]*)\n<\/\1>$/.exec(
      mirror,
    );
    expect(fenced?.[2]).toContain('Shall we meet at noon?');
    expect(harness.smtp?.received.length).toBe(before);
  });

  it('forwards with the original attachments, and refuses one over the attachment cap', async () => {
    const uid = await uidOf('Invoice April');
    const result = await harness.call('send_email', {
      forward_uid: uid,
      to: ['dan@example.com'],
      text: 'For your records.',
      attachments: ['notes.txt'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const parsed = harness.smtp?.received.at(-1)?.parsed;
    expect(parsed?.subject).toBe('Fwd: Invoice April');
    expect(parsed?.text).toMatch(
      /For your records\.\n\n---------- Forwarded message ----------\nFrom: Accounts <billing@vendor\.example>/,
    );
    expect(parsed?.text).toContain('The invoice is attached.');
    expect(parsed?.attachments.map((item) => [item.filename, item.content.toString()])).toEqual([
      ['notes.txt', 'my notes'],
      ['invoice-2026-04.pdf', '%PDF-1.4 april'],
    ]);

    const big = await harness.call('send_email', { forward_uid: await uidOf('Scans'), to: ['dan@example.com'] });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(/"scan\.bin" is 5000 bytes; each attachment may have at most 4096/);
    const outside = await harness.call('send_email', { forward_uid: uid, to: ['eve@attacker.test'] });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/eve@attacker\.test is not on the recipient allowlist/);
  });

  it('refuses a reply that is also a forward, a missing uid, and a bad one, with an isError', async () => {
    const uid = await uidOf('Lunch on Friday');
    const both = await harness.call('send_email', {
      reply_to_uid: uid,
      forward_uid: uid,
      to: ['dan@example.com'],
      text: 'x',
    });
    expect(textOf(both)).toMatch(/reply_to_uid or forward_uid, not both/);
    const silent = await harness.call('send_email', { reply_to_uid: uid });
    expect(textOf(silent)).toMatch(/text \(body\): A reply needs its own text/);
    const missing = await harness.call('send_email', { reply_to_uid: 999_999, text: 'x' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/no message with uid 999999 in INBOX/);
    for (const bad of [0, -1, 1.5, '1:*']) {
      expect((await harness.call('send_email', { reply_to_uid: bad, text: 'x' })).isError).toBe(true);
    }
  });

  it('lists a conversation with search_messages thread_of, fenced like every read', async () => {
    for (const subject of ['Lunch on Friday', 'Re: Lunch on Friday']) {
      const result = await harness.call('search_messages', { thread_of: await uidOf(subject) });
      const hits = result.structuredContent?.messages as Hit[];
      expect(hits.map((hit) => hit.subject)).toEqual(['Re: Lunch on Friday', 'Lunch on Friday']);
      expect(textOf(result)).toMatch(/<untrusted-mail-[0-9a-f]{16}>\n[\s\S]*Lunch on Friday[\s\S]*<\/untrusted-mail-/);
    }
    const alone = await harness.call('search_messages', { thread_of: await uidOf('Weekly digest') });
    expect(((alone.structuredContent?.messages ?? []) as Hit[]).map((hit) => hit.subject)).toEqual(['Weekly digest']);
    const narrowed = await harness.call('search_messages', {
      thread_of: await uidOf('Lunch on Friday'),
      from: 'bob@example.com',
    });
    expect(((narrowed.structuredContent?.messages ?? []) as Hit[]).map((hit) => hit.subject)).toEqual([
      'Re: Lunch on Friday',
    ]);
    const missing = await harness.call('search_messages', { thread_of: 999_999 });
    expect(missing.isError).toBe(true);
  });

  it('saves a draft with HTML, an attachment and reply headers', async () => {
    const result = await harness.call('save_draft', {
      to: ['alice@example.com'],
      subject: 'Re: Lunch on Friday',
      html: '<p>Draft <b>answer</b></p>',
      attachments: ['notes.txt'],
      in_reply_to: '<lunch-1@example.com>',
      references: ['<lunch-1@example.com>'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(harness.asked.at(-1)).toMatch(/Attachments: notes\.txt \(8 bytes\)/);
    const read = await harness.call('read_message', {
      mailbox: 'Drafts',
      uid: await uidOf('Re: Lunch on Friday', 'Drafts'),
    });
    expect(read.structuredContent).toMatchObject({
      body: 'Draft answer',
      attachments: [{ filename: 'notes.txt', size: 8 }],
    });
    const bad = await harness.call('save_draft', { subject: 'x', text: 'y', in_reply_to: 'not an id' });
    expect(textOf(bad)).toMatch(/in_reply_to: "not an id" is not a Message-ID/);
  });

  it('replies in the 2026-07-28 era: asked through an input request, sent once after the yes', async () => {
    const smtp = harness.smtp;
    if (smtp === undefined) throw new Error('no SMTP fixture');
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
      imap: imapOptions(dovecot),
      state: join(harness.directory, 'modern-state.db'),
      log: () => {},
    });
    const asked: string[] = [];
    const client = await connectTestClient(
      { server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: { confirmed: true } };
        },
      },
    );
    try {
      const before = smtp.received.length;
      const uid = await uidOf('Lunch on Friday');
      const result = (await client.callTool('send_email', { reply_to_uid: uid, text: 'From the new era.' })) as {
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(smtp.received.length).toBe(before + 1);
      expect(smtp.received.at(-1)?.parsed.inReplyTo).toBe('<lunch-1@example.com>');
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe.runIf(serviceGate(dovecotService, it))('conversations from a server without THREAD', () => {
  it('finds the conversation by Message-ID, In-Reply-To and References headers', async () => {
    // The capabilities Dovecot announces after login, THREAD=REFERENCES left out.
    const dovecot = await startDovecot({
      extraConfiguration:
        'imap_capability = IMAP4rev1 SASL-IR LITERAL+ ID ENABLE IDLE SORT SPECIAL-USE NAMESPACE UIDPLUS MOVE',
    });
    dovecot.deliver('INBOX', [lunch, unrelated, lunchAnswer]);
    const harness = await startEmailHarness({ smtp: false, server: () => ({ imap: imapOptions(dovecot) }) });
    try {
      const all = (await harness.call('search_messages', {})).structuredContent?.messages as Hit[];
      const first = all.find((hit) => hit.subject === 'Lunch on Friday');
      const result = await harness.call('search_messages', { thread_of: first?.uid });
      expect(((result.structuredContent?.messages ?? []) as Hit[]).map((hit) => hit.subject)).toEqual([
        'Re: Lunch on Friday',
        'Lunch on Friday',
      ]);
    } finally {
      await harness.close();
      await dovecot.stop();
    }
  });
});

describe('replies without IMAP', () => {
  it('refuses reply_to_uid with a clear isError when no IMAP server is configured', async () => {
    const harness = await startEmailHarness({ smtp: false });
    try {
      const result = await harness.call('send_email', { reply_to_uid: 1, text: 'x' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/configured no IMAP server/);
    } finally {
      await harness.close();
    }
  });
});

function subjectOf(message: string): string {
  return /^Subject: (.*)$/m.exec(message)?.[1]?.trim() ?? '';
}
