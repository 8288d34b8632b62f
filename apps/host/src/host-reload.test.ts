import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { scriptedServer, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { parseHostConfig } from './config/load-config.ts';

describe('reloading the config', () => {
  it('starts, stops and restarts only what changed, tells clients, and lets calls on the rest finish', async () => {
    const servers = {
      kept: scriptedServer({ label: 'kept', tools: { wait: 'wait', open: 'open' } }),
      changed: scriptedServer({ label: 'before', tools: { echo: 'echo' } }),
      removed: scriptedServer({ label: 'removed', tools: { echo: 'echo' } }),
    };
    const h = await startHostHarness(() => ({ mcpServers: servers }));
    try {
      let changes = 0;
      h.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      });
      const pidOf = (name: string) => h.host.upstreams.find((upstream) => upstream.entry.name === name)?.pid;
      const keptPid = pidOf('kept');
      const changedPid = pidOf('changed');
      const inFlight = h.call('kept_wait', {});

      const next = {
        toolshed: { audit: { path: `${h.directory}/audit.jsonl` } },
        mcpServers: {
          kept: servers.kept,
          changed: scriptedServer({ label: 'after', tools: { echo: 'echo' } }),
          added: scriptedServer({ label: 'added', tools: { echo: 'echo' } }),
        },
      };
      const summary = await h.host.reload(parseHostConfig(JSON.stringify(next), `${h.directory}/toolshed.json`, {}));
      expect(summary).toEqual({ added: ['added'], restarted: ['changed'], removed: ['removed'], unchanged: ['kept'] });
      expect(pidOf('kept')).toBe(keptPid);
      expect(pidOf('changed')).not.toBe(changedPid);
      const names = (await h.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['added_echo', 'changed_echo', 'kept_open', 'kept_wait']);
      expect(textOf(await h.call('changed_echo', {}))).toBe('after:echo');
      expect(textOf(await h.call('added_echo', {}))).toBe('added:echo');
      await expect.poll(() => changes, { timeout: 3000 }).toBeGreaterThan(0);

      // The call that was waiting on the unchanged server all along is answered as if nothing happened.
      expect(textOf(await h.call('kept_open', {}))).toBe('kept:open');
      const waited = await inFlight;
      expect(waited.isError).toBeFalsy();
      expect(textOf(waited)).toBe('kept:wait waited');
    } finally {
      await h.close();
    }
  });

  it('renames every tool when the separator changes, without restarting anything', async () => {
    const servers = { kept: scriptedServer({ label: 'kept', tools: { echo: 'echo' } }) };
    const h = await startHostHarness(() => ({ mcpServers: servers }));
    try {
      const pid = h.host.upstreams[0]?.pid;
      const next = { toolshed: { separator: '-', audit: { path: `${h.directory}/audit.jsonl` } }, mcpServers: servers };
      const summary = await h.host.reload(parseHostConfig(JSON.stringify(next), `${h.directory}/toolshed.json`, {}));
      expect(summary.unchanged).toEqual(['kept']);
      expect(h.host.upstreams[0]?.pid).toBe(pid);
      expect((await h.client.listTools()).tools.map((tool) => tool.name)).toEqual(['kept-echo']);
      expect(textOf(await h.call('kept-echo', {}))).toBe('kept:echo');
    } finally {
      await h.close();
    }
  });

  it('refuses a config whose package options are wrong, and changes nothing', async () => {
    const h = await startHostHarness(() => ({
      mcpServers: { kept: scriptedServer({ label: 'kept', tools: { echo: 'echo' } }) },
    }));
    try {
      const bad = { mcpServers: { '@toolshed/server-weather': { forecastUrll: 'http://127.0.0.1:9' } } };
      await expect(
        h.host.reload(parseHostConfig(JSON.stringify(bad), `${h.directory}/toolshed.json`, {})),
      ).rejects.toThrow(/forecastUrll/);
      expect(h.host.upstreams.map((upstream) => [upstream.entry.name, upstream.state])).toEqual([['kept', 'up']]);
    } finally {
      await h.close();
    }
  });
});
