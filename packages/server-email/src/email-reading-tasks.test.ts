import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { awaitTask, connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CuttingProxy, startCuttingProxy } from './__fixtures__/cutting-proxy.ts';
import { type DovecotServer, dovecotService, startDovecot } from './__fixtures__/dovecot-server.ts';
import { type EmailHarness, startEmailHarness } from './__fixtures__/email-harness.ts';
import { messageWithAttachments, textMessage } from './__fixtures__/sample-messages.ts';

describe.runIf(serviceGate(dovecotService, it))('reading tools as tasks, against Dovecot', () => {
  let dovecot: DovecotServer;
  let proxy: CuttingProxy;
  let harness: EmailHarness;
  let saved: string;
  let tasksClient: TestClient;
  let plainClient: TestClient;

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver('INBOX', [
      textMessage({ subject: 'Rent for November', text: 'The rent goes up by 20 euros from December.' }),
      messageWithAttachments({
        subject: 'Invoice March',
        text: 'Please find the invoice attached.',
        attachments: [
          { filename: 'invoice-2026-03.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 test') },
        ],
      }),
    ]);
    // Between the server and Dovecot, so that a test can keep Dovecot's answers back: a server slow to answer.
    proxy = await startCuttingProxy(dovecot.imapsPort);
    harness = await startEmailHarness({
      smtp: false,
      server: (directory) => {
        saved = join(directory, 'saved');
        mkdirSync(saved);
        return {
          imap: { host: '127.0.0.1', port: proxy.port, user: dovecot.user, password: dovecot.password, ca: dovecot.ca },
          saveDirectory: saved,
          // A reply limit no machine reaches here: a held answer must not count as a dead server.
          limits: { imapTimeoutMs: 600_000 },
        };
      },
    });
    tasksClient = await connectTestClient(
      { server: harness.server },
      { client: 'v2-modern', transport: 'memory', tasks: true },
    );
    plainClient = await connectTestClient({ server: harness.server }, { client: 'v2-modern', transport: 'memory' });
  }, 60_000);

  afterAll(async () => {
    proxy?.release();
    await tasksClient?.close();
    await plainClient?.close();
    await harness?.close();
    await proxy?.close();
    await dovecot?.stop();
  });

  it('search_messages and save_attachment may become tasks; the other tools never do', () => {
    const support = Object.fromEntries(
      harness.server.toolNames().map((name) => [name, harness.server.getTool(name)?.task?.support ?? 'never']),
    );
    expect(support).toMatchObject({
      search_messages: 'optional',
      save_attachment: 'optional',
      read_message: 'never',
      list_mailboxes: 'never',
    });
    expect(Object.entries(support).filter(([, value]) => value !== 'never')).toHaveLength(2);
  });

  it('a quick search answers at once, the same for a client that takes tasks and one that does not', async () => {
    const plain = await plainClient.callTool('search_messages', {});
    expect(plain.isError).toBeFalsy();
    expect(plain.structuredContent).toMatchObject({ mailbox: 'INBOX', total: 2, truncated: false });
    const quick = await tasksClient.request('tools/call', { name: 'search_messages', arguments: {} });
    expect(quick).toMatchObject({ resultType: 'complete' });
    expect(quick.structuredContent).toEqual(plain.structuredContent);
  });

  it('a search that Dovecot is slow to answer becomes a task, which tasks/get follows to the same result', async () => {
    const plain = await plainClient.callTool('search_messages', { subject: 'Invoice' });
    proxy.hold();
    const created = await tasksClient.request('tools/call', {
      name: 'search_messages',
      arguments: { subject: 'Invoice' },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    expect(await tasksClient.request('tasks/get', { taskId })).toMatchObject({ status: 'working' });
    proxy.release();
    const done = await awaitTask(tasksClient, taskId);
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: plain.structuredContent } });
    expect(JSON.stringify(done.result)).toContain('Invoice March');
    expect(tasksClient.protocolProblems()).toEqual([]);
  }, 60_000);

  it('save_attachment that went on as a task and was cancelled while fetching saves nothing', async () => {
    const search = await plainClient.callTool('search_messages', { subject: 'Invoice' });
    const invoice = (search.structuredContent?.messages as { uid: number }[] | undefined)?.[0]?.uid;
    proxy.hold();
    const created = await tasksClient.request('tools/call', {
      name: 'save_attachment',
      arguments: { uid: invoice, attachment: 1 },
    });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    await tasksClient.request('tasks/cancel', { taskId });
    proxy.release();
    // The task ends once the tool has stopped: past the point where it would have written.
    expect(await awaitTask(tasksClient, taskId)).toMatchObject({ status: 'cancelled' });
    expect(readdirSync(saved)).toEqual([]);

    const plain = await plainClient.callTool('save_attachment', { uid: invoice, attachment: 1 });
    expect(plain.structuredContent).toMatchObject({ saved_as: 'invoice-2026-03.pdf' });
    expect(readdirSync(saved)).toEqual(['invoice-2026-03.pdf']);
  }, 60_000);
});
