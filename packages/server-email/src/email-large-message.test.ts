import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DovecotServer, dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailProcess, startEmailProcess } from './__fixtures__/email-instances.ts';
import { messageWithAttachments } from './__fixtures__/sample-messages.ts';

// What the server process may reach at its peak (VmHWM) while reading, or saving the attachment of, a message of
// this size: the whole message is never held, only what a call returns or writes.
const peakBudgetMb = 300;
const attachmentBytes = 40 * 1024 * 1024;
// Moving 54 MB through TLS, the IMAP parser and MailParser takes seconds on a quiet machine and half a minute on a
// busy one: these tests bound memory, not time.
const largeCall = { timeout: 180_000 };

type Result = { isError?: boolean; content?: { text?: string }[]; structuredContent?: Record<string, unknown> };

function peakMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

describe.runIf(serviceGate(dovecotService, it))('a 40 MB attachment in bounded memory', () => {
  let dovecot: DovecotServer;
  let directory: string;
  let attachment: Buffer;

  async function start(): Promise<EmailProcess> {
    const caFile = join(directory, 'ca.pem');
    writeFileSync(caFile, dovecot.ca);
    return startEmailProcess(
      [
        '--imap-host',
        dovecot.host,
        '--imap-port',
        String(dovecot.imapsPort),
        '--imap-user',
        dovecot.user,
        '--imap-ca',
        caFile,
        '--save-dir',
        join(directory, 'saved'),
        '--outbox',
        join(directory, 'outbox'),
        '--max-call-bytes',
        String(64 * 1024 * 1024),
        '--max-saved-attachment-bytes',
        String(48 * 1024 * 1024),
      ],
      { TOOLSHED_EMAIL_IMAP_PASSWORD: dovecot.password, XDG_STATE_HOME: directory },
    );
  }

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-email-large-'));
    mkdirSync(join(directory, 'saved'));
    dovecot = await startDovecot();
    attachment = randomBytes(attachmentBytes);
    dovecot.deliver('INBOX', [
      Buffer.from(
        messageWithAttachments({
          subject: 'Scans of the house',
          text: 'All the scans, as promised.',
          attachments: [{ filename: 'scans.bin', content: attachment }],
        }),
        'latin1',
      ),
    ]);
  }, 120_000);

  afterAll(async () => {
    await dovecot?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  async function uidOf(server: EmailProcess): Promise<number> {
    const search = (await server.client.callTool('search_messages', { subject: 'Scans' })) as Result;
    return ((search.structuredContent?.messages ?? []) as { uid: number }[])[0]?.uid ?? 0;
  }

  it(`reads it with the server process's peak resident memory under ${peakBudgetMb} MB`, largeCall, async () => {
    const server = await start();
    try {
      const read = (await server.client.callTool('read_message', { uid: await uidOf(server) })) as Result;
      expect(read.isError).toBeFalsy();
      expect(read.structuredContent).toMatchObject({
        message_truncated: false,
        attachments: [{ index: 1, filename: 'scans.bin', size: attachmentBytes }],
      });
      const peak = peakMb(server.pid);
      console.log(`read_message of a ${attachmentBytes / 1024 / 1024} MB attachment: peak RSS ${peak.toFixed(0)} MB`);
      expect(peak).toBeLessThan(peakBudgetMb);
    } finally {
      await server.close();
    }
  });

  it(`saves the attachment whole with the peak under ${peakBudgetMb} MB`, largeCall, async () => {
    const server = await start();
    try {
      const saved = (await server.client.callTool('save_attachment', {
        uid: await uidOf(server),
        attachment: 1,
      })) as Result;
      expect(saved.isError, saved.content?.[0]?.text).toBeFalsy();
      const file = join(directory, 'saved', 'scans.bin');
      expect(statSync(file).size).toBe(attachmentBytes);
      expect(readFileSync(file).equals(attachment)).toBe(true);
      const peak = peakMb(server.pid);
      console.log(
        `save_attachment of a ${attachmentBytes / 1024 / 1024} MB attachment: peak RSS ${peak.toFixed(0)} MB`,
      );
      expect(peak).toBeLessThan(peakBudgetMb);
    } finally {
      await server.close();
    }
  });
});
