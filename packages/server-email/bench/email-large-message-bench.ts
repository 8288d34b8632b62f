/**
 * The peak memory (VmHWM) of reading one message with a 40 MB attachment
 * over IMAP: the toolshed-email bin doing `read_message`, then in a fresh
 * process `save_attachment`, against imapflow used directly (the anchor,
 * bench/imapflow-large-message-reader.js: `download()` streamed through
 * mailparser's `MailParser`, the attachment counted or written to a file),
 * each in a process of its own against the same Dovecot. The contenders take
 * turns, a fresh process each, and the medians of the peaks are compared.
 *
 *   pnpm --filter @toolshed/server-email build
 *   pnpm --filter @toolshed/server-email bench
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startDovecot } from '../src/__fixtures__/dovecot-server.ts';
import { messageWithAttachments } from '../src/__fixtures__/sample-messages.ts';
import { memoryOf, startStdioServer } from './stdio-bench-server.ts';

const rounds = Number(process.env.BENCH_LARGE_ROUNDS ?? 5);
const attachmentBytes = 40 * 1024 * 1024;
const ourBin = new URL('../bin/toolshed-email.js', import.meta.url).pathname;
const anchorScript = new URL('./imapflow-large-message-reader.js', import.meta.url).pathname;

type Task = 'read' | 'save';

if (!existsSync(new URL('../dist/toolshed-email.js', import.meta.url))) {
  throw new Error('Build the package first: pnpm --filter @toolshed/server-email build');
}
const dovecot = await startDovecot();
const scratch = mkdtempSync(join(tmpdir(), 'toolshed-email-large-'));
try {
  dovecot.deliver('INBOX', [
    Buffer.from(
      messageWithAttachments({
        subject: 'Scans of the house',
        text: 'All the scans, as promised.',
        attachments: [{ filename: 'scans.bin', content: randomBytes(attachmentBytes) }],
      }),
      'latin1',
    ),
  ]);
  const caFile = join(scratch, 'ca.pem');
  writeFileSync(caFile, dovecot.ca);
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CONFIG_HOME: scratch, XDG_STATE_HOME: scratch };
  const saveDirectory = join(scratch, 'saved');

  /** A fresh directory to save into, so a save never meets the file of the one before. */
  function freshSaveDirectory(): void {
    rmSync(saveDirectory, { recursive: true, force: true });
    mkdirSync(saveDirectory);
  }

  function checkSaved(): void {
    const size = statSync(join(saveDirectory, 'scans.bin')).size;
    if (size !== attachmentBytes) throw new Error(`saved ${size} bytes, not ${attachmentBytes}`);
  }

  async function ours(task: Task): Promise<number> {
    freshSaveDirectory();
    const server = await startStdioServer(
      ourBin,
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
        saveDirectory,
        '--outbox',
        join(scratch, 'outbox'),
        '--max-call-bytes',
        String(64 * 1024 * 1024),
        '--max-saved-attachment-bytes',
        String(48 * 1024 * 1024),
      ],
      { ...baseEnv, TOOLSHED_EMAIL_IMAP_PASSWORD: dovecot.password },
    );
    try {
      const search = await server.call('search_messages', { subject: 'Scans' });
      const uid = (search.structuredContent as { messages: { uid: number }[] }).messages[0]?.uid ?? 0;
      if (task === 'read') await server.call('read_message', { uid });
      else {
        await server.call('save_attachment', { uid, attachment: 1 });
        checkSaved();
      }
      return memoryOf(server.child.pid ?? 0).peak;
    } finally {
      await server.close();
    }
  }

  async function anchor(task: Task): Promise<number> {
    freshSaveDirectory();
    const child: ChildProcess = spawn(process.execPath, [anchorScript, task, saveDirectory], {
      env: {
        ...baseEnv,
        IMAP_HOST: dovecot.host,
        IMAP_PORT: String(dovecot.imapsPort),
        IMAP_USER: dovecot.user,
        IMAP_PASSWORD: dovecot.password,
        IMAP_CA: dovecot.ca,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the anchor exited with ${code}`)));
      });
      if (line !== `done ${attachmentBytes}`) throw new Error(`the anchor said: ${line}`);
      if (task === 'save') checkSaved();
      return memoryOf(child.pid ?? 0).peak;
    } finally {
      child.stdin?.end();
      child.kill();
    }
  }

  const contenders = { ours, anchor };
  const peaks: Record<Task, Record<keyof typeof contenders, number[]>> = {
    read: { ours: [], anchor: [] },
    save: { ours: [], anchor: [] },
  };
  for (let round = 0; round < rounds; round++) {
    const order: (keyof typeof contenders)[] = round % 2 === 0 ? ['ours', 'anchor'] : ['anchor', 'ours'];
    for (const task of ['read', 'save'] as const) {
      for (const name of order) peaks[task][name].push(await contenders[name](task));
    }
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  console.log(
    `node ${process.version}, one message with a ${attachmentBytes / 1024 / 1024} MB attachment in Dovecot, ${rounds} rounds, a fresh process each, taking turns`,
  );
  console.log('');
  console.log(
    '| 40 MB attachment, peak RSS (VmHWM) | toolshed-email MB | imapflow + MailParser MB | ratio | runs (ours / anchor) |',
  );
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const task of ['read', 'save'] as const) {
    const ourPeak = median(peaks[task].ours);
    const anchorPeak = median(peaks[task].anchor);
    const runs = `${peaks[task].ours.map((peak) => peak.toFixed(0)).join(' ')} / ${peaks[task].anchor.map((peak) => peak.toFixed(0)).join(' ')}`;
    console.log(
      `| ${task === 'read' ? '`read_message`' : '`save_attachment`'} | ${ourPeak.toFixed(1)} | ${anchorPeak.toFixed(1)} | ${(ourPeak / anchorPeak).toFixed(2)}× | ${runs} |`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await dovecot.stop();
}
