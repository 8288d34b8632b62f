/**
 * The anchor of the large-message bench: imapflow used directly, in a
 * process of its own, as a careful application would read a large message.
 * It connects, opens INBOX read-only, finds the message by subject, streams
 * its source through `download()` into mailparser's `MailParser`, and counts
 * each attachment's bytes as they pass (`read`) or writes the attachment to a
 * file as it arrives (`save`). Then it says `done` and waits for its stdin to
 * close, so the bench can read its peak memory from /proc. Plain JavaScript:
 * a .ts file would have Node load its TypeScript stripper (some 20 MB), which
 * the built bin does not.
 *
 *   node bench/imapflow-large-message-reader.js read|save <output directory>
 *   (IMAP_HOST, IMAP_PORT, IMAP_USER, IMAP_PASSWORD, IMAP_CA in the environment)
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ImapFlow } from 'imapflow';
import { MailParser } from 'mailparser';

const [mode = 'read', outputDirectory = '.'] = process.argv.slice(2);
const environment = (name) => process.env[name] ?? '';

const client = new ImapFlow({
  host: environment('IMAP_HOST'),
  port: Number(environment('IMAP_PORT')),
  secure: true,
  tls: { ca: environment('IMAP_CA') },
  auth: { user: environment('IMAP_USER'), pass: environment('IMAP_PASSWORD') },
  logger: false,
});
await client.connect();
const lock = await client.getMailboxLock('INBOX', { readOnly: true });
let attachmentBytes = 0;
try {
  const uids = await client.search({ subject: 'Scans' }, { uid: true });
  const uid = uids === false ? undefined : uids[0];
  if (uid === undefined) throw new Error('no message to read');
  const download = await client.download(String(uid), undefined, { uid: true });
  const parser = new MailParser();
  const attachmentsDone = [];
  parser.on('data', (part) => {
    if (part.type !== 'attachment') return;
    const counted = part.content.on('data', (chunk) => {
      attachmentBytes += chunk.length;
    });
    attachmentsDone.push(
      (mode === 'save'
        ? pipeline(counted, createWriteStream(join(outputDirectory, part.filename ?? 'attachment')))
        : new Promise((resolve, reject) => counted.on('end', resolve).on('error', reject))
      ).finally(() => part.release()),
    );
  });
  await pipeline(download.content, parser);
  await Promise.all(attachmentsDone);
} finally {
  lock.release();
  await client.logout();
}
console.log(`done ${attachmentBytes}`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
