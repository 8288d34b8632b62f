/**
 * The memory of the process doing one search and 20 reads on a
 * 10,000-message Dovecot mailbox: the toolshed-email bin against email-mcp
 * (@codefuturist/email-mcp, an npm IMAP MCP server), each a child process
 * driven over stdio by the same bare JSON-RPC client, against the same
 * Dovecot. Reports each process's resident memory after start, after the
 * work, and at its peak (VmHWM), and the ratio of the peaks.
 *
 * email-mcp is installed with npm into bench/.bench/ on the first run.
 *
 *   pnpm --filter @toolshed/server-email build
 *   pnpm --filter @toolshed/server-email bench
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDovecot } from '../src/__fixtures__/dovecot-server.ts';
import { benchSender, fillBenchMailbox } from './bench-mailbox.ts';
import { memoryOf, type StdioServer, startStdioServer } from './stdio-bench-server.ts';

const messageCount = Number(process.env.BENCH_MESSAGES ?? 10_000);
const rounds = Number(process.env.BENCH_MEMORY_ROUNDS ?? 5);
const emailMcpVersion = '0.2.0';
const benchDirectory = new URL('./.bench/', import.meta.url).pathname;
const ourBin = new URL('../bin/toolshed-email.js', import.meta.url).pathname;

function installEmailMcp(): string {
  const prefix = join(benchDirectory, `email-mcp-${emailMcpVersion}`);
  const main = join(prefix, 'node_modules', '@codefuturist', 'email-mcp', 'dist', 'main.js');
  if (!existsSync(main)) {
    mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', `@codefuturist/email-mcp@${emailMcpVersion}`],
      {
        stdio: 'inherit',
      },
    );
  }
  return main;
}

if (!existsSync(new URL('../dist/toolshed-email.js', import.meta.url))) {
  throw new Error('Build the package first: pnpm --filter @toolshed/server-email build');
}
const emailMcp = installEmailMcp();
const dovecot = await startDovecot();
const scratch = mkdtempSync(join(tmpdir(), 'toolshed-email-memory-'));
try {
  fillBenchMailbox(dovecot, messageCount);
  const caFile = join(scratch, 'ca.pem');
  writeFileSync(caFile, dovecot.ca);
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CONFIG_HOME: scratch, XDG_STATE_HOME: scratch };

  const contenders: {
    name: string;
    start: () => Promise<StdioServer>;
    work: (server: StdioServer, round: number) => Promise<void>;
  }[] = [
    {
      name: 'toolshed-email',
      start: () =>
        startStdioServer(
          ourBin,
          [
            '--imap-host',
            '127.0.0.1',
            '--imap-port',
            String(dovecot.imapsPort),
            '--imap-user',
            dovecot.user,
            '--imap-ca',
            caFile,
            '--outbox',
            join(scratch, 'outbox'),
          ],
          { ...baseEnv, TOOLSHED_EMAIL_IMAP_PASSWORD: dovecot.password },
        ),
      async work(server, round) {
        const search = await server.call('search_messages', { from: benchSender(round), limit: 20 });
        for (const hit of (search.structuredContent as { messages: { uid: number }[] }).messages) {
          await server.call('read_message', { uid: hit.uid });
        }
      },
    },
    {
      name: `email-mcp ${emailMcpVersion}`,
      start: () =>
        startStdioServer(emailMcp, [], {
          ...baseEnv,
          NODE_EXTRA_CA_CERTS: caFile,
          MCP_EMAIL_ADDRESS: dovecot.user,
          MCP_EMAIL_PASSWORD: dovecot.password,
          MCP_EMAIL_IMAP_HOST: '127.0.0.1',
          MCP_EMAIL_IMAP_PORT: String(dovecot.imapsPort),
          MCP_EMAIL_SMTP_HOST: '127.0.0.1',
        }),
      async work(server, round) {
        const listed = await server.call('list_emails', { account: 'default', from: benchSender(round), pageSize: 20 });
        const text = listed.content?.map((block) => block.text ?? '').join('\n') ?? '';
        // It lists each message as "[uid] subject" in its text.
        const ids = [...text.matchAll(/^\[(\d+)\]/gm)].map((match) => match[1] ?? '');
        if (ids.length === 0) throw new Error(`email-mcp listed nothing: ${text.slice(0, 300)}`);
        for (const id of ids.slice(0, 20))
          await server.call('get_email', { account: 'default', emailId: id, format: 'text' });
      },
    },
  ];

  console.log(
    `node ${process.version}, Dovecot ${messageCount.toLocaleString('en')} messages, ${rounds} rounds of 1 search + 20 reads per process`,
  );
  console.log('');
  console.log('| server | RSS after start MB | RSS after the work MB | peak RSS MB |');
  console.log('| --- | ---: | ---: | ---: |');
  const peaks: number[] = [];
  for (const contender of contenders) {
    const server = await contender.start();
    const pid = server.child.pid ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = memoryOf(pid);
    for (let round = 0; round < rounds; round++) await contender.work(server, round);
    const after = memoryOf(pid);
    peaks.push(after.peak);
    console.log(
      `| ${contender.name} | ${started.rss.toFixed(1)} | ${after.rss.toFixed(1)} | ${after.peak.toFixed(1)} |`,
    );
    await server.close();
  }
  console.log('');
  console.log(`toolshed-email ÷ email-mcp (peak RSS): ${((peaks[0] ?? 0) / (peaks[1] ?? 1)).toFixed(2)}×`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  await dovecot.stop();
}
