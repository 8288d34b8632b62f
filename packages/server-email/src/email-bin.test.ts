import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { recordMessages, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpFixture, startSmtpFixture } from './__fixtures__/smtp-fixture.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let smtp: SmtpFixture;
let directory: string;
let caFile: string;

beforeAll(async () => {
  smtp = await startSmtpFixture();
  directory = mkdtempSync(join(tmpdir(), 'toolshed-email-bin-'));
  caFile = join(directory, 'ca.pem');
  writeFileSync(caFile, smtp.ca);
});

afterAll(async () => {
  await smtp.close();
  rmSync(directory, { recursive: true, force: true });
});

function smtpEnvironment(password = 'correct horse battery staple'): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    TOOLSHED_EMAIL_SMTP_URL: `smtp://sender%40example.com:${encodeURIComponent(password)}@127.0.0.1:${smtp.port}`,
    TOOLSHED_EMAIL_SMTP_CA: caFile,
    TOOLSHED_EMAIL_FROM: 'Assistant <sender@example.com>',
    TOOLSHED_EMAIL_STATE: join(directory, 'state.db'),
  };
}

describe('toolshed-email bin', () => {
  it.each([
    [['--smtp-security', 'ssl'], {}, /--smtp-security: Invalid option: expected one of "starttls"\|"tls"\|"none"/],
    [['--from', 'not an address'], {}, /The sender "not an address" has spaces/],
    [['--allow-recipients', 'exa mple.com'], {}, /Allowlist entry "exa mple.com"/],
    [['--log-recipients', 'plain'], {}, /--log-recipients: Invalid option: expected one of "hash"\|"domain"\|"full"/],
    [['--sends-per-minute', '0'], {}, /--sends-per-minute: must be a whole number of at least 1/],
    [[], { TOOLSHED_EMAIL_MAX_RECIPIENTS: '0' }, /--max-recipients: must be a whole number of at least 1/],
    [['--smtp-host', '127.0.0.1'], {}, /Set the sender with --from/],
    [['--smtp-user', 'x'], {}, /--smtp-host: required with any other SMTP setting/],
    [['--smtp-host', 'h', '--smtp-ca', '/nonexistent/ca.pem'], {}, /--smtp-ca \/nonexistent\/ca.pem cannot be read/],
    [[], { TOOLSHED_EMAIL_SMTP_URL: 'http://example.com' }, /TOOLSHED_EMAIL_SMTP_URL must look like smtp:\/\//],
    [[], 'wrong-password', /refused the login; check the user and TOOLSHED_EMAIL_SMTP_PASSWORD/],
    [
      ['--imap-host', 'imap.example.com', '--imap-user', 'me', '--imap-security', 'none'],
      { TOOLSHED_EMAIL_IMAP_PASSWORD: 'x' },
      /--imap-security none is allowed only to 127.0.0.1 or ::1/,
    ],
    [['--imap-host', 'imap.example.com', '--imap-user', 'me'], {}, /TOOLSHED_EMAIL_IMAP_PASSWORD/],
    [['--save-dir', '/tmp'], {}, /--save-dir needs an IMAP server/],
    [[], { TOOLSHED_EMAIL_IMAP_URL: 'https://example.com' }, /TOOLSHED_EMAIL_IMAP_URL must look like imaps:\/\//],
    [
      ['--state', 'mysql://db.example.com/state'],
      {},
      /--state: must be a postgres:\/\/ URL or a file path; mysql:\/\//,
    ],
    [
      [],
      { TOOLSHED_EMAIL_STATE: 'postgres://toolshed:hunter2@[db/toolshed' },
      /^(?!.*hunter2).*--state: is not a valid URL: write postgres:\/\/user@host:port\/database/,
    ],
  ] as [string[], Record<string, string> | 'wrong-password', RegExp][])(
    'exits 2 with one line for %j %j',
    async (args, environment, message) => {
      const env =
        environment === 'wrong-password'
          ? smtpEnvironment('wrong')
          : {
              ...(process.env as Record<string, string>),
              TOOLSHED_EMAIL_OUTBOX: join(directory, 'outbox'),
              ...environment,
            };
      // Asynchronously: the SMTP server the bin checks at start runs in this process.
      const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = execFile(process.execPath, [bin, ...args], { encoding: 'utf8', env }, (error, _stdout, stderr) =>
          resolve({ status: error === null ? 0 : (child.exitCode ?? null), stderr }),
        );
        child.stdin?.end();
      });
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.status).toBe(2);
    },
  );

  it('serves stdio: SMTP from the environment, a confirmed send arrives, the send log goes to stderr', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, '--allow-recipients', 'example.com'],
      env: smtpEnvironment(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const recording = recordMessages(transport);
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { confirmed: true } }));
    await client.connect(recording.transport);
    const before = smtp.received.length;
    const result = await client.callTool({
      name: 'send_email',
      arguments: { to: 'Bob <bob@example.com>', subject: 'From the bin', text: 'Hello' },
    });
    expect(result.isError).toBeFalsy();
    expect(smtp.received.slice(before).map((message) => [message.parsed.subject, message.secure])).toEqual([
      ['From the bin', true],
    ]);
    expect(recording.specViolations()).toEqual([]);
    await client.close();
    const line = stderr.split('\n').find((entry) => entry.includes('"event":"sent"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      source: 'toolshed-email',
      event: 'sent',
      delivery: 'smtp',
      recipients: [expect.stringMatching(/^sha256:[0-9a-f]{16}$/)],
    });
    expect(stderr).not.toContain('bob@example.com');
  });

  it('serves Streamable HTTP with --http to the v2 SDK client, in outbox mode', async () => {
    const outbox = join(directory, 'http-outbox');
    const server = await spawnHttpServer([
      bin,
      '--http',
      '127.0.0.1:0',
      '--outbox',
      outbox,
      '--state',
      join(directory, 'http-state.db'),
      '--skip-confirmation',
      '--allow-recipients',
      'example.com',
    ]);
    try {
      const client = new ClientV2({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(['preview_email', 'send_email', 'validate_recipients']);
      const result = await client.callTool({
        name: 'send_email',
        arguments: { to: 'bob@example.com', subject: 'Over HTTP', text: 'Hello' },
      });
      expect(result.structuredContent).toMatchObject({ delivery: 'outbox' });
      expect(readdirSync(outbox)).toHaveLength(1);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
