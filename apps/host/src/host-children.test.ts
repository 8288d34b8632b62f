import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { everythingServer, startHostHarness } from './__fixtures__/host-harness.ts';
import { startSdkHttpServer } from './__fixtures__/sdk-http-server.ts';
import { startedChildGroups } from './upstream/child-process-transport.ts';
import { processesInGroups } from './upstream/process-groups.ts';

describe('child servers', () => {
  it('restarts a child that crashes, withdrawing its tools while it is down and telling clients', async () => {
    const h = await startHostHarness(() => ({ mcpServers: { everything: everythingServer() } }), {
      restartDelayMs: 300,
    });
    try {
      let changed = 0;
      h.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed += 1;
      });
      const upstream = h.host.upstreams[0];
      const firstPid = upstream?.pid ?? 0;
      expect(firstPid).toBeGreaterThan(0);
      const before = (await h.client.listTools()).tools.length;
      expect(before).toBeGreaterThan(5);
      process.kill(firstPid, 'SIGKILL');
      await expect.poll(async () => (await h.client.listTools()).tools.length, { timeout: 5000, interval: 20 }).toBe(0);
      await expect(h.call('everything_echo', { message: 'x' })).rejects.toThrow(/Unknown tool: "everything_echo"/);
      await expect.poll(async () => (await h.client.listTools()).tools.length, { timeout: 10_000 }).toBe(before);
      expect(upstream?.pid).not.toBe(firstPid);
      expect(changed).toBeGreaterThanOrEqual(2);
      expect(h.log.join('\n')).toMatch(/\[everything\] was killed by SIGKILL/);
      expect(h.log.join('\n')).toMatch(/\[everything\] restarting in 300 ms \(restart 1 of at most 5\)/);
      const echoed = await h.call('everything_echo', { message: 'back' });
      expect(echoed.content[0]?.text).toBe('Echo: back');
    } finally {
      await h.close();
    }
  });

  it('keeps trying an HTTP server that is not up yet, and serves its tools once it is', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const h = await startHostHarness(() => ({ mcpServers: { later: { url: `http://127.0.0.1:${port}/mcp` } } }), {
      restartDelayMs: 100,
    });
    const remote = await startSdkHttpServer(port);
    try {
      expect(h.log.join('\n')).toMatch(/\[later\] could not start: /);
      await expect
        .poll(async () => (await h.client.listTools()).tools.map((tool) => tool.name), { timeout: 10_000 })
        .toContain('later_add');
      expect((await h.call('later_add', { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    } finally {
      await h.close();
      await remote.close();
    }
  });

  it('gives up on a child that keeps crashing, after the configured restarts', async () => {
    const h = await startHostHarness(
      () => ({
        toolshed: { maxRestarts: 2 },
        mcpServers: {
          broken: { command: process.execPath, args: ['-e', 'console.error("no config found"); process.exit(3)'] },
        },
      }),
      { restartDelayMs: 20 },
    );
    try {
      await expect.poll(() => h.host.upstreams[0]?.state, { timeout: 5000 }).toBe('failed');
      const log = h.log.join('\n');
      expect(log).toMatch(/\[broken\] no config found/);
      expect(log).toMatch(/\[broken\] (exited with code 3|could not start)/);
      expect(log).toMatch(/\[broken\] gave up after 2 restarts/);
    } finally {
      await h.close();
    }
  });

  it('hands a child only a minimal environment, the env of its entry and the names it inherits, never secrets of the host', async () => {
    process.env.TOOLSHED_TEST_SECRET = 'sk-not-for-children';
    process.env.TOOLSHED_TEST_NAMED = 'named-and-passed';
    const printEnvironment =
      "for (const [name, value] of Object.entries(process.env)) console.error(name + '=' + value); process.exit(0)";
    const h = await startHostHarness(() => ({
      toolshed: { maxRestarts: 0 },
      mcpServers: {
        printer: {
          command: process.execPath,
          args: ['-e', printEnvironment],
          env: { FROM_ENTRY: 'entry-value' },
          inheritEnv: ['TOOLSHED_TEST_NAMED'],
        },
      },
    }));
    try {
      await expect.poll(() => h.log.join('\n'), { timeout: 5000 }).toMatch(/\[printer\] FROM_ENTRY=entry-value/);
      const log = h.log.join('\n');
      expect(log).toMatch(/\[printer\] TOOLSHED_TEST_NAMED=named-and-passed/);
      expect(log).toMatch(/\[printer\] PATH=/);
      expect(log).not.toContain('sk-not-for-children');
      expect(log).not.toMatch(/\[printer\] TOOLSHED_TEST_SECRET=/);
    } finally {
      delete process.env.TOOLSHED_TEST_SECRET;
      delete process.env.TOOLSHED_TEST_NAMED;
      await h.close();
    }
  });

  it('leaves no process behind: not the child, not what a wrapper started, not one that ignores SIGTERM', async () => {
    const { command, args } = everythingServer();
    const quoted = [command, ...args].map((part) => `'${part}'`).join(' ');
    const h = await startHostHarness(() => ({
      mcpServers: {
        // Like an npx wrapper: a shell that starts the server as its own child and waits.
        wrapped: { command: 'sh', args: ['-c', `${quoted}; true`] },
        // A wrapper that ignores SIGTERM: only the SIGKILL after the grace period ends it.
        stubborn: { command: 'sh', args: ['-c', `trap '' TERM; ${quoted}; true`] },
      },
    }));
    const groups = startedChildGroups().filter((group) => h.host.upstreams.some((upstream) => upstream.pid === group));
    expect(groups).toHaveLength(2);
    const running = processesInGroups(groups);
    expect(running.length).toBeGreaterThanOrEqual(4);
    expect((await h.call('wrapped_echo', { message: 'hi' })).content[0]?.text).toBe('Echo: hi');
    await h.close();
    expect(processesInGroups(groups)).toEqual([]);
  });
});
