import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient, serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, imapOptions, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness, textOf } from './__fixtures__/email-harness.ts';
import { mailboxSnapshot } from './__fixtures__/mailbox-snapshot.ts';
import { htmlMessage, messageWithAttachments, textMessage } from './__fixtures__/sample-messages.ts';
import { createEmailServer } from './create-email-server.ts';

type Hit = { uid: number; subject: string; from: string[]; snippet: string; has_attachments: boolean; flags: string[] };

describe.runIf(serviceGate(dovecotService, it))('reading mail from Dovecot', () => {
  let dovecot: DovecotServer;
  let harness: EmailHarness;

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver('INBOX', [
      textMessage({
        subject: 'Rent for November',
        text: 'Hello,\nthe rent goes up by 20 euros from December.\nRegards',
      }),
      textMessage({
        from: 'Newsletter <news@list.example>',
        subject: 'Weekly digest',
        text: 'Ten things you missed this week.',
        date: 'Mon, 16 Nov 2026 07:00:00 +0000',
      }),
    ]);
    dovecot.deliver(
      'INBOX',
      [
        htmlMessage({
          subject: 'Your order shipped',
          html: '<p>Your <b>parcel</b> is on its way. <a href="https://shop.example/track/1">Track it</a></p><script>steal()</script>',
        }),
      ],
      'S',
    );
    dovecot.deliver('INBOX', [
      messageWithAttachments({
        subject: 'Invoice March',
        text: 'Please find the invoice attached.',
        attachments: [
          { filename: 'invoice-2026-03.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 test') },
        ],
      }),
    ]);
    dovecot.deliver(
      'Sent',
      [textMessage({ from: 'reader@example.com', to: 'landlord@example.net', subject: 'Re: Rent', text: 'Noted.' })],
      'S',
    );
    harness = await startEmailHarness({
      smtp: false,
      server: (directory) => {
        mkdirSync(join(directory, 'saved'));
        return { imap: imapOptions(dovecot), saveDirectory: join(directory, 'saved') };
      },
    });
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
    await dovecot?.stop();
  });

  it('lists the mailboxes with their special use and counts', async () => {
    const result = await harness.call('list_mailboxes', {});
    expect(result.isError).toBeFalsy();
    const mailboxes = result.structuredContent?.mailboxes as {
      name: string;
      special_use?: string;
      messages?: number;
      unseen?: number;
    }[];
    expect(mailboxes).toEqual(
      expect.arrayContaining([
        { name: 'INBOX', special_use: '\\Inbox', messages: 4, unseen: 3 },
        { name: 'Sent', special_use: '\\Sent', messages: 1, unseen: 0 },
        { name: 'Trash', special_use: '\\Trash', messages: 0, unseen: 0 },
      ]),
    );
    expect(textOf(result)).toContain('Sent (\\Sent): 1 messages, 0 unseen');
  });

  it('searches newest first, with snippets, attachments marked, and says when it cut', async () => {
    const all = await harness.call('search_messages', {});
    const hits = all.structuredContent?.messages as Hit[];
    expect(hits.map((hit) => hit.subject)).toEqual([
      'Invoice March',
      'Your order shipped',
      'Weekly digest',
      'Rent for November',
    ]);
    expect(hits[0]?.has_attachments).toBe(true);
    expect(hits[1]?.snippet).toBe('Your parcel is on its way. Track it [https://shop.example/track/1]');
    expect(hits[3]?.snippet).toContain('the rent goes up by 20 euros');
    expect(hits[1]?.flags).toEqual(['\\Seen']);

    const limited = await harness.call('search_messages', { limit: 2 });
    expect(limited.structuredContent).toMatchObject({ total: 4, truncated: true });
    expect(textOf(limited)).toMatch(/2 of 4 matching messages in INBOX, newest first \(truncated/);

    const fromLandlord = await harness.call('search_messages', { from: 'landlord@example.net' });
    expect((fromLandlord.structuredContent?.messages as Hit[] | undefined)?.map((hit) => hit.subject)).toEqual([
      'Rent for November',
    ]);
    const unseen = await harness.call('search_messages', { unseen: true, text: 'invoice' });
    expect((unseen.structuredContent?.messages as Hit[] | undefined)?.map((hit) => hit.subject)).toEqual([
      'Invoice March',
    ]);
    const sent = await harness.call('search_messages', { mailbox: 'Sent' });
    expect(sent.structuredContent).toMatchObject({ total: 1, mailbox: 'Sent' });
  });

  it('reads a message: headers, body, attachments, all that the sender wrote inside a fence', async () => {
    const hits = (await harness.call('search_messages', { subject: 'Invoice' })).structuredContent?.messages as Hit[];
    const uid = hits[0]?.uid ?? 0;
    const result = await harness.call('read_message', { uid });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      uid,
      subject: 'Invoice March',
      from: ['Accounts <billing@vendor.example>'],
      body: 'Please find the invoice attached.',
      body_truncated: false,
      attachments: [{ index: 1, filename: 'invoice-2026-03.pdf', content_type: 'application/pdf', size: 13 }],
    });
    const text = textOf(result);
    const fence = /<untrusted-mail-([0-9a-f]{16})>\n([\s\S]*)\n<\/untrusted-mail-\1>/.exec(text);
    expect(fence?.[2]).toContain('Subject: Invoice March');
    expect(fence?.[2]).toContain('Please find the invoice attached.');
    expect(fence?.[2]).toContain('1. invoice-2026-03.pdf (application/pdf, 13 bytes)');
    expect(text.slice(0, text.indexOf('<untrusted'))).not.toContain('Invoice March');
  });

  it('turns HTML into text, without scripts, and cuts long bodies saying so', async () => {
    const hits = (await harness.call('search_messages', { subject: 'shipped' })).structuredContent?.messages as Hit[];
    const result = await harness.call('read_message', { uid: hits[0]?.uid, max_body_chars: 100 });
    expect(result.structuredContent?.body).toBe('Your parcel is on its way. Track it [https://shop.example/track/1]');
    expect(textOf(result)).not.toContain('steal');
    const rent = (await harness.call('search_messages', { subject: 'Rent' })).structuredContent?.messages as Hit[];
    const cut = await harness.call('read_message', { uid: rent[0]?.uid, max_body_chars: 100 });
    expect(cut.structuredContent).toMatchObject({ body_truncated: false });
  });

  it('answers a missing message, a missing mailbox and a bad uid with an isError', async () => {
    expect(textOf(await harness.call('read_message', { uid: 999_999 }))).toMatch(/no message with uid 999999/);
    expect(textOf(await harness.call('search_messages', { mailbox: 'Nope' }))).toMatch(/no mailbox "Nope"/);
    for (const uid of ['1:*', '1,2', '*', 0, -1, 1.5]) {
      expect((await harness.call('read_message', { uid })).isError).toBe(true);
    }
  });

  it('changes nothing: every UID, flag and size is the same after every read tool', async () => {
    const before = await mailboxSnapshot(dovecot);
    expect(before.some((line) => line.includes('[\\Seen]'))).toBe(true);
    await harness.call('list_mailboxes', {});
    for (const mailbox of ['INBOX', 'Sent']) {
      const hits = (await harness.call('search_messages', { mailbox })).structuredContent?.messages as Hit[];
      for (const hit of hits) {
        await harness.call('read_message', { mailbox, uid: hit.uid });
        if (hit.has_attachments) await harness.call('save_attachment', { mailbox, uid: hit.uid, attachment: 1 });
      }
    }
    expect(await mailboxSnapshot(dovecot)).toEqual(before);
  });

  it('serves the reading tools in the 2026-07-28 era too, to schema', async () => {
    const server = createEmailServer({
      outboxDirectory: join(harness.directory, 'outbox'),
      imap: imapOptions(dovecot),
    });
    const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const result = (await client.callTool('search_messages', { subject: 'Rent' })) as {
        structuredContent?: { total?: number };
      };
      expect(result.structuredContent?.total).toBe(1);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('runs as the bin over stdio, the server and login from TOOLSHED_EMAIL_IMAP_URL', async () => {
    const caFile = join(harness.directory, 'imap-ca.pem');
    writeFileSync(caFile, dovecot.ca);
    const client = await connectTestClient(
      {
        bin: [new URL('./cli.ts', import.meta.url).pathname],
        env: {
          ...(process.env as Record<string, string>),
          TOOLSHED_EMAIL_IMAP_URL: `imaps://${encodeURIComponent(dovecot.user)}:${encodeURIComponent(dovecot.password)}@127.0.0.1:${dovecot.imapsPort}`,
          TOOLSHED_EMAIL_IMAP_CA: caFile,
          TOOLSHED_EMAIL_OUTBOX: join(harness.directory, 'outbox'),
        },
      },
      { client: 'v2-legacy', transport: 'stdio' },
    );
    try {
      const result = (await client.callTool('search_messages', { subject: 'Invoice' })) as {
        structuredContent?: { total?: number };
      };
      expect(result.structuredContent?.total).toBe(1);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('reads over STARTTLS as well', async () => {
    const server = createEmailServer({
      outboxDirectory: join(harness.directory, 'outbox'),
      imap: imapOptions(dovecot, 'starttls'),
    });
    const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
    try {
      const result = (await client.callTool('list_mailboxes', {})) as { isError?: boolean };
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
      await server.close();
    }
  });
});
