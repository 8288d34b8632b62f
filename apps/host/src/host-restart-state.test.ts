import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostConfig } from './config/load-config.ts';
import { ConsoleSessions } from './console/console-sessions.ts';
import { createTokenStore } from './console/console-token-store.ts';
import { createHost, type Host } from './create-host.ts';

describe('a single host restarted on its embedded store', () => {
  let directory: string;
  let workspace: string;
  const hostOn = (state: string): Host =>
    createHost(
      parseHostConfig(
        JSON.stringify({
          toolshed: { approval: { mode: 'console' } },
          mcpServers: {
            files: {
              package: '@toolshed/server-filesystem',
              options: { directories: [workspace] },
              rateLimit: { perMinute: 3 },
              tools: { allow: ['list_allowed_directories'] },
            },
            writer: {
              package: '@toolshed/server-filesystem',
              options: { directories: [workspace] },
              tools: { allow: ['write_file'] },
            },
          },
        }),
        join(directory, 'toolshed.json'),
      ),
      { log: () => {}, state },
    );

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-restart-'));
    workspace = join(directory, 'workspace');
    mkdirSync(workspace);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps rate budgets and logins; a call waiting in the console is refused clearly, and a late decision runs nothing', async () => {
    const state = join(directory, 'state.db');
    const before = hostOn(state);
    await before.start();
    before.approvals.attach('http://127.0.0.1:9/');
    const client = await connectTestClient({ server: before.server }, { client: 'v1', transport: 'memory' });
    for (let call = 0; call < 2; call++) {
      expect((await client.callTool('files_list_allowed_directories', {})).isError).toBeFalsy();
    }
    const { token } = await createTokenStore(before.store).create('ana', 'laptop');
    const session = await new ConsoleSessions(before.store).open('ana', token.id);
    const target = join(workspace, 'waiting.txt');
    // The host closing ends the call: as an error result, or as the connection closing under it.
    const waiting = client
      .callTool('writer_write_file', { path: target, content: 'late' })
      .catch((error: unknown) => ({ isError: true, content: [{ text: String(error) }] }));
    await expect.poll(async () => (await before.approvals.pending()).length).toBe(1);
    const [pending] = await before.approvals.pending();
    await before.close();
    expect((await waiting).isError).toBe(true);
    await client.close();

    const after = hostOn(state);
    await after.start();
    try {
      // The budget counted before the restart still counts: one call left of three.
      const again = await connectTestClient({ server: after.server }, { client: 'v2-modern', transport: 'memory' });
      expect((await again.callTool('files_list_allowed_directories', {})).isError).toBeFalsy();
      const limited = await again.callTool('files_list_allowed_directories', {});
      expect(limited.isError).toBe(true);
      expect(limited.content[0]?.text).toMatch(/files allows 3 calls per minute/);
      await again.close();
      // The browser is still logged in.
      expect((await new ConsoleSessions(after.store).find(session.id))?.user).toBe('ana');
      // The request the previous run held is over: a decision now is refused and runs nothing.
      const decision = await after.approvals.decide(pending?.id ?? '', {
        tool: pending?.tool ?? '',
        argumentsDigest: pending?.argumentsDigest ?? '',
        approve: true,
        by: 'ana',
      });
      expect(decision).toEqual({ ok: false, refusal: 'unknown' });
      expect(existsSync(target)).toBe(false);
      const record = await after.store().audit.query({ tool: 'writer_write_file', limit: 5 });
      // Ended by the close: recorded as cancelled when its own ending was written first, else interrupted.
      expect(record.records).toHaveLength(1);
      expect(['cancelled', 'interrupted']).toContain(record.records[0]?.outcome);
    } finally {
      await after.close();
    }
  });
});
