import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, type TestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { everythingServer } from './__fixtures__/host-harness.ts';
import { parseHostConfig } from './config/load-config.ts';
import type { PendingApproval } from './console/approval-broker.ts';
import { createHost, type Host } from './create-host.ts';

let directory: string;
let workspace: string;

function hostWith(approval: Record<string, unknown>, serverApproval: Record<string, unknown> = {}): Host {
  return createHost(
    parseHostConfig(
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') }, approval },
        mcpServers: { '@toolshed/server-filesystem': { directories: [workspace], approval: serverApproval } },
      }),
      join(directory, 'toolshed.json'),
    ),
    { log: () => {} },
  );
}

async function nextPending(host: Host): Promise<PendingApproval> {
  await expect.poll(async () => (await host.approvals.pending()).length).toBeGreaterThan(0);
  return (await host.approvals.pending())[0] as PendingApproval;
}

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-console-modes-'));
  workspace = join(directory, 'workspace');
  mkdirSync(workspace);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('approval in the console, for clients that cannot ask (elicit-or-console)', () => {
  let host: Host;
  let detach: () => void;

  beforeAll(async () => {
    host = hostWith({});
    await host.start();
    detach = host.approvals.attach('http://127.0.0.1:9/');
  });

  afterAll(async () => {
    detach();
    await host.close();
  });

  it.each(['v1', 'v2-legacy', 'v2-modern'] as const)(
    '%s client without elicitation: the call waits, a human approves, the file is written',
    async (kind) => {
      const client = await connectTestClient({ server: host.server }, { client: kind, transport: 'memory' });
      try {
        const target = join(workspace, `approved-${kind}.txt`);
        const args = { path: target, content: 'approved' };
        const call = client.callTool('filesystem_write_file', args);
        const pending = await nextPending(host);
        expect(pending).toMatchObject({ tool: 'filesystem_write_file', upstreamTool: 'write_file', arguments: args });
        expect(pending.caller).toMatch(/\S/);
        expect(existsSync(target)).toBe(false);
        const decision = { tool: pending.tool, argumentsDigest: pending.argumentsDigest, approve: true, by: 'alice' };
        expect(await host.approvals.decide(pending.id, decision)).toEqual({ ok: true });
        const result = await call;
        expect(result.isError, result.content[0]?.text).toBeFalsy();
        expect(readFileSync(target, 'utf8')).toBe('approved');
        expect(await host.approvals.decide(pending.id, decision)).toEqual({ ok: false, refusal: 'already_decided' });
        expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
          tool: 'filesystem_write_file',
          approval: 'approved',
          outcome: 'ok',
        });
        expect(client.recording.specViolations()).toEqual([]);
      } finally {
        await client.close();
      }
    },
  );

  it('a denial returns a clear error and writes nothing', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const target = join(workspace, 'denied.txt');
      const call = client.callTool('filesystem_write_file', { path: target, content: 'no' });
      const pending = await nextPending(host);
      await host.approvals.decide(pending.id, {
        tool: pending.tool,
        argumentsDigest: pending.argumentsDigest,
        approve: false,
        by: 'alice',
      });
      const result = await call;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/A human denied filesystem_write_file in the Toolshed console/);
      expect(existsSync(target)).toBe(false);
      expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
        approval: 'declined',
        outcome: 'refused',
      });
    } finally {
      await client.close();
    }
  });

  it('tells the waiting client it is still waiting, as progress', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v1', transport: 'memory' });
    try {
      const messages: string[] = [];
      const sdk = client.sdk as {
        callTool(params: unknown, schema: unknown, options: unknown): Promise<{ isError?: boolean }>;
      };
      const call = sdk.callTool(
        { name: 'filesystem_write_file', arguments: { path: join(workspace, 'progress.txt'), content: 'p' } },
        undefined,
        { onprogress: (progress: { message?: string }) => messages.push(progress.message ?? '') },
      );
      const pending = await nextPending(host);
      await expect.poll(() => messages.length).toBeGreaterThan(0);
      expect(messages[0]).toMatch(/Waiting for a human to approve filesystem_write_file in the Toolshed console/);
      await host.approvals.decide(pending.id, {
        tool: pending.tool,
        argumentsDigest: pending.argumentsDigest,
        approve: true,
        by: 'alice',
      });
      expect((await call).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('a client that can ask is still asked, not the console', async () => {
    const asked: string[] = [];
    const client = await connectTestClient(
      { server: host.server },
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
      const result = await client.callTool('filesystem_write_file', {
        path: join(workspace, 'asked.txt'),
        content: 'asked',
      });
      expect(result.isError).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(await host.approvals.pending()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  // The SDK v1 client: cancelling through the SDK v2 client over the in-memory pair never returns (a known gap there).
  it('the caller’s cancellation takes the call off the list', async () => {
    const client = await connectTestClient({ server: host.server }, { client: 'v1', transport: 'memory' });
    try {
      const controller = new AbortController();
      const call = client.callTool(
        'filesystem_write_file',
        { path: join(workspace, 'cancelled.txt'), content: 'c' },
        { signal: controller.signal },
      );
      await nextPending(host);
      controller.abort();
      await expect(call).rejects.toThrow();
      await expect.poll(() => host.approvals.pending()).toEqual([]);
      expect(existsSync(join(workspace, 'cancelled.txt'))).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('approval modes', () => {
  let client: TestClient | undefined;

  afterAll(() => client?.close());

  it('expires a call nobody decides within the console time limit', async () => {
    const host = hostWith({ consoleTimeLimitMs: 50 });
    await host.start();
    host.approvals.attach('http://127.0.0.1:9/');
    const caller = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const result = await caller.callTool('filesystem_write_file', {
        path: join(workspace, 'expired.txt'),
        content: 'late',
      });
      expect(result.content[0]?.text).toMatch(/Nobody approved filesystem_write_file in the Toolshed console within/);
      expect(existsSync(join(workspace, 'expired.txt'))).toBe(false);
      expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
        approval: 'expired',
        outcome: 'refused',
      });
    } finally {
      await caller.close();
      await host.close();
    }
  });

  it('`console` puts even a client that can ask to the console, and refuses when none is running', async () => {
    const host = hostWith({}, { mode: 'console' });
    await host.start();
    const asked: string[] = [];
    const caller = await connectTestClient(
      { server: host.server },
      {
        client: 'v2-legacy',
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: { confirmed: true } };
        },
      },
    );
    try {
      const target = join(workspace, 'console-mode.txt');
      const refused = await caller.callTool('filesystem_write_file', { path: target, content: 'x' });
      expect(refused.content[0]?.text).toMatch(
        /needs a human's approval in the Toolshed console, and no console is running/,
      );
      host.approvals.attach('http://127.0.0.1:9/');
      const call = caller.callTool('filesystem_write_file', { path: target, content: 'x' });
      const pending = await nextPending(host);
      await host.approvals.decide(pending.id, {
        tool: pending.tool,
        argumentsDigest: pending.argumentsDigest,
        approve: true,
        by: 'alice',
      });
      expect((await call).isError).toBeFalsy();
      expect(asked).toEqual([]);
      expect(existsSync(target)).toBe(true);
    } finally {
      await caller.close();
      await host.close();
    }
  });

  it('`elicit`, set for a tool by pattern, refuses a client that cannot ask although a console runs', async () => {
    const host = hostWith({}, { modes: { 'write_*': 'elicit' } });
    await host.start();
    host.approvals.attach('http://127.0.0.1:9/');
    const caller = await connectTestClient({ server: host.server }, { client: 'v1', transport: 'memory' });
    try {
      const result = await caller.callTool('filesystem_write_file', {
        path: join(workspace, 'elicit-only.txt'),
        content: 'x',
      });
      expect(result.content[0]?.text).toMatch(/needs a human's approval, and this client cannot ask for it/);
      expect(await host.approvals.pending()).toEqual([]);
    } finally {
      await caller.close();
      await host.close();
    }
  });

  it('shows the server’s own preview of the call, where it has one (preview_email for send_email)', async () => {
    const host = createHost(
      parseHostConfig(
        JSON.stringify({
          toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
          mcpServers: {
            // The host asks; the email server's own question would go to a client that cannot answer.
            '@toolshed/server-email': { outboxDirectory: join(directory, 'outbox'), skipConfirmation: true },
          },
        }),
        join(directory, 'toolshed.json'),
      ),
      { log: () => {} },
    );
    await host.start();
    host.approvals.attach('http://127.0.0.1:9/');
    const caller = await connectTestClient({ server: host.server }, { client: 'v2-modern', transport: 'memory' });
    try {
      const call = caller.callTool('email_send_email', {
        to: 'outbox@toolshed.invalid',
        subject: 'Quarterly figures',
        text: 'Attached in spirit.',
      });
      const pending = await nextPending(host);
      expect(pending.preview).toMatch(/would be sent/);
      await host.approvals.decide(pending.id, {
        tool: pending.tool,
        argumentsDigest: pending.argumentsDigest,
        approve: true,
        by: 'alice',
      });
      const result = await call;
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(readdirSync(join(directory, 'outbox'))).toHaveLength(1);
    } finally {
      await caller.close();
      await host.close();
    }
  });

  it('a 2026-era retry of a call approved in the console (to answer the upstream’s question) is not put to the console again', async () => {
    const host = createHost(
      parseHostConfig(
        JSON.stringify({
          toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
          mcpServers: {
            everything: {
              ...everythingServer(),
              tools: { allow: ['trigger-elicitation-request'] },
              approval: { require: ['trigger-elicitation-request'], mode: 'console' },
            },
          },
        }),
        join(directory, 'toolshed.json'),
      ),
      { log: () => {} },
    );
    await host.start();
    host.approvals.attach('http://127.0.0.1:9/');
    const asked: string[] = [];
    const caller = await connectTestClient(
      { server: host.server },
      {
        client: 'v2-modern',
        transport: 'memory',
        onElicit: (params) => {
          asked.push(String(params.message));
          return { action: 'accept', content: { name: 'Ada Lovelace' } };
        },
      },
    );
    const approved = new Set<string>();
    const stop = host.approvals.onChange(async () => {
      for (const pending of await host.approvals.pending()) {
        if (approved.has(pending.id)) continue;
        approved.add(pending.id);
        await host.approvals.decide(pending.id, {
          tool: pending.tool,
          argumentsDigest: pending.argumentsDigest,
          approve: true,
          by: 'alice',
        });
      }
    });
    try {
      const result = await caller.callTool('everything_trigger-elicitation-request', {});
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.content.map((block) => block.text).join('\n')).toMatch(/Ada Lovelace/);
      expect(asked).toEqual(['Please provide inputs for the following fields:']);
      expect(approved.size).toBe(1);
    } finally {
      stop();
      await caller.close();
      await host.close();
    }
  }, 60_000);

  it('refuses an unknown mode in the config with its path', () => {
    expect(() =>
      parseHostConfig(
        JSON.stringify({ mcpServers: { a: { command: 'x', approval: { mode: 'ask-the-model' } } } }),
        'toolshed.json',
      ),
    ).toThrow(/toolshed.json at mcpServers.a.approval.mode: Invalid option/);
  });
});
