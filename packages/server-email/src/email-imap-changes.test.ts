import { join } from 'node:path';
import { connectTestClient, serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, imapOptions, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness, textOf, type UserAnswer } from './__fixtures__/email-harness.ts';
import { directImapClient, mailboxSnapshot } from './__fixtures__/mailbox-snapshot.ts';
import { textMessage } from './__fixtures__/sample-messages.ts';
import { createEmailServer } from './create-email-server.ts';

type Hit = { uid: number; subject: string };

describe.runIf(serviceGate(dovecotService, it))('changing a mailbox', () => {
  let dovecot: DovecotServer;
  const harnesses: EmailHarness[] = [];

  async function harnessFor(answer: UserAnswer, allowMailboxChanges = true): Promise<EmailHarness> {
    const harness = await startEmailHarness({
      smtp: false,
      answer,
      server: () => ({ imap: imapOptions(dovecot), allowMailboxChanges }),
    });
    harnesses.push(harness);
    return harness;
  }

  async function uidOf(harness: EmailHarness, subject: string, mailbox = 'INBOX'): Promise<number> {
    const result = await harness.call('search_messages', { mailbox, subject });
    return ((result.structuredContent?.messages as Hit[] | undefined) ?? [])[0]?.uid ?? 0;
  }

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver(
      'INBOX',
      ['Newsletter one', 'Newsletter two', 'Keep me', 'Flag me', 'Bin me'].map((subject) =>
        textMessage({ from: 'News <news@list.example>', subject, text: `${subject} body` }),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    for (const harness of harnesses) await harness.close();
    await dovecot?.stop();
  });

  it('offers no changing tool without --allow-mailbox-changes, and refuses the call', async () => {
    const harness = await harnessFor('accept', false);
    const names = (await harness.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('move_message');
    expect(names).not.toContain('delete_message');
    const before = await mailboxSnapshot(dovecot);
    const uid = await uidOf(harness, 'Keep me');
    const attempt = await harness.call('delete_message', { uid }).catch((error: Error) => ({
      isError: true,
      content: [{ type: 'text', text: error.message }],
    }));
    expect(attempt.isError).toBe(true);
    expect(harness.asked).toEqual([]);
    expect(await mailboxSnapshot(dovecot)).toEqual(before);
  });

  it.each(['decline', 'cancel', 'no-elicitation'] as const)('changes nothing when the answer is %s', async (answer) => {
    const harness = await harnessFor(answer);
    const before = await mailboxSnapshot(dovecot);
    const uid = await uidOf(harness, 'Keep me');
    for (const [tool, args] of [
      ['move_message', { uid, to_mailbox: 'Archive' }],
      ['flag_message', { uid, add: ['\\Flagged'] }],
      ['delete_message', { uid }],
      ['save_draft', { subject: 'Draft', text: 'x' }],
    ] as const) {
      const result = await harness.call(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toMatch(/^Nothing changed/);
    }
    if (answer !== 'no-elicitation') {
      expect(harness.asked[0]).toMatch(
        /^Move this message\?\nMailbox: INBOX\nFrom: News <news@list\.example>\nSubject: "Keep me"\nIt will be moved to: Archive$/,
      );
    }
    expect(await mailboxSnapshot(dovecot)).toEqual(before);
  });

  it('refuses what is not one message, a mailbox that does not exist, \\Deleted, and UIDs it has not reported', async () => {
    const fresh = await harnessFor('accept');
    const before = await mailboxSnapshot(dovecot);
    const unsearched = await fresh.call('move_message', { uid: 1, to_mailbox: 'Archive' });
    expect(textOf(unsearched)).toMatch(/Search or read INBOX first/);
    const uid = await uidOf(fresh, 'Keep me');
    for (const range of ['1:*', '1,2', '*', '2:4', 0, -3, 2.5]) {
      expect((await fresh.call('delete_message', { uid: range })).isError).toBe(true);
    }
    expect(textOf(await fresh.call('move_message', { uid, to_mailbox: 'Nowhere' }))).toMatch(/no mailbox "Nowhere"/);
    expect((await fresh.call('flag_message', { uid, add: ['\\Deleted'] })).isError).toBe(true);
    expect((await fresh.call('flag_message', { uid, add: ['\\Seen \\Deleted'] })).isError).toBe(true);
    expect(fresh.asked).toEqual([]);
    expect(await mailboxSnapshot(dovecot)).toEqual(before);
  });

  it('with a yes: moves, flags, moves to Trash, then deletes from Trash by UID EXPUNGE of that UID alone', async () => {
    const harness = await harnessFor('accept');
    const newsletter = await uidOf(harness, 'Newsletter one');
    const moved = await harness.call('move_message', { uid: newsletter, to_mailbox: 'Archive' });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect(await uidOf(harness, 'Newsletter one', 'Archive')).toBeGreaterThan(0);
    expect(await uidOf(harness, 'Newsletter one')).toBe(0);

    const flagged = await harness.call('flag_message', {
      uid: await uidOf(harness, 'Flag me'),
      add: ['\\Flagged', '$Important'],
    });
    expect(flagged.structuredContent?.flags).toEqual(expect.arrayContaining(['\\Flagged', '$Important']));

    const bin = await uidOf(harness, 'Bin me');
    const trashed = await harness.call('delete_message', { uid: bin });
    expect(trashed.structuredContent).toEqual({ outcome: 'moved_to_trash', trash: 'Trash' });

    // Another client marks a message in Trash \Deleted without expunging it: ours must leave it.
    const direct = await directImapClient(dovecot);
    await direct.append('Trash', textMessage({ subject: 'Marked elsewhere', text: 'x' }), ['\\Deleted']);
    await direct.logout();
    const inTrash = await uidOf(harness, 'Bin me', 'Trash');
    const gone = await harness.call('delete_message', { mailbox: 'Trash', uid: inTrash });
    expect(gone.structuredContent).toEqual({ outcome: 'deleted_permanently', trash: 'Trash' });
    expect(harness.asked.at(-1)).toMatch(/^Delete this message permanently\?/);
    expect(await uidOf(harness, 'Bin me', 'Trash')).toBe(0);
    expect(await uidOf(harness, 'Marked elsewhere', 'Trash')).toBeGreaterThan(0);

    const draft = await harness.call('save_draft', {
      to: ['landlord@example.net'],
      subject: 'About the rent',
      text: 'Dear landlord,',
    });
    expect(draft.structuredContent).toMatchObject({ mailbox: 'Drafts' });
    expect(await uidOf(harness, 'About the rent', 'Drafts')).toBeGreaterThan(0);
  });

  it('refuses a UID from before the mailbox was renumbered (UIDVALIDITY changed)', async () => {
    const harness = await harnessFor('accept');
    const direct = await directImapClient(dovecot);
    await direct.mailboxCreate('Receipts');
    await direct.append('Receipts', textMessage({ subject: 'Receipt', text: 'x' }));
    const uid = await uidOf(harness, 'Receipt', 'Receipts');
    await direct.mailboxDelete('Receipts');
    await direct.mailboxCreate('Receipts');
    await direct.append('Receipts', textMessage({ subject: 'Another receipt', text: 'x' }));
    await direct.logout();
    const result = await harness.call('delete_message', { mailbox: 'Receipts', uid });
    expect(textOf(result)).toMatch(/renumbered/);
    expect(harness.asked).toEqual([]);
  });

  it('asks through an input request in the 2026-07-28 era and changes after the yes', async () => {
    const server = createEmailServer({
      outboxDirectory: join(dovecot.maildir, '..', 'outbox'),
      imap: imapOptions(dovecot),
      allowMailboxChanges: true,
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
      const search = (await client.callTool('search_messages', { subject: 'Newsletter two' })) as {
        structuredContent?: { messages?: Hit[] };
      };
      const uid = search.structuredContent?.messages?.[0]?.uid;
      const moved = (await client.callTool('move_message', { uid, to_mailbox: 'Archive' })) as { isError?: boolean };
      expect(moved.isError).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
