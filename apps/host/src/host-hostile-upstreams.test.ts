import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostHarness, scriptedServer, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { type ScriptedHttpServer, startScriptedHttpServer } from './__fixtures__/scripted-http-server.ts';
import { startedChildGroups } from './upstream/child-process-transport.ts';
import { processesInGroups } from './upstream/process-groups.ts';

/** Just over the 32 MiB the host takes in one message. */
const hugeBytes = 33 * 1024 * 1024;

describe('upstreams that misbehave', () => {
  let h: HostHarness;
  let remote: ScriptedHttpServer;

  beforeAll(async () => {
    remote = await startScriptedHttpServer(hugeBytes);
    h = await startHostHarness(() => ({
      // The host-wide time limit: what stops the calls nobody answers. The servers that answer huge set their own.
      toolshed: { toolTimeoutMs: 500 },
      mcpServers: {
        child: {
          ...scriptedServer({
            label: 'child',
            tools: { echo: 'echo', huge: 'huge' },
            hugeBytes,
            // Ten MiB on stderr without a newline before it serves.
            stderrBytes: 10 * 1024 * 1024,
          }),
          toolTimeoutMs: 600_000,
        },
        stuck: scriptedServer({ label: 'stuck', tools: { echo: 'echo', garbage: 'garbage', silent: 'silent' } }),
        flooding: scriptedServer({ label: 'flooding', tools: { echo: 'echo' }, stderrLines: 100_000 }),
        remote: { url: remote.url, tools: { deny: ['silent'] }, toolTimeoutMs: 600_000 },
        waiting: { url: remote.url, tools: { allow: ['silent'] } },
      },
    }));
  });

  afterAll(async () => {
    await h.close();
    await remote.close();
  });

  it('cuts a flood on stderr to one short line in the log', async () => {
    const floods = () => h.log.filter((line) => line.startsWith('[child] eeee'));
    await expect.poll(() => floods().length, { timeout: 5000 }).toBe(1);
    const flood = floods();
    expect(flood[0]?.length).toBeLessThan(9 * 1024);
    expect(flood[0]).toMatch(/… \(a line of 10485760 bytes, cut\)$/);
  });

  it('passes a flood of stderr lines on at a bounded rate, saying how many it held back', async () => {
    await expect
      .poll(() => h.log.some((line) => /^\[flooding\] \(\d+ more lines of stderr not shown/.test(line)), {
        timeout: 10_000,
      })
      .toBe(true);
    // A burst of 100, then 20 a second: far fewer than the 100,000 written, however slow the machine.
    expect(h.log.filter((line) => line === '[flooding] flood').length).toBeLessThan(10_000);
    expect(textOf(await h.call('flooding_echo', {}))).toBe('flooding:echo');
  });

  it('fails a call whose answer is over the cap, clearly, and the child goes on', async () => {
    const result = await h.call('child_huge', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/its answer was 33\.0 MiB, over the 32 MiB the host takes in one message/);
    expect(textOf(await h.call('child_echo', {}))).toBe('child:echo');
  });

  it('logs what is not JSON on stdout, and a call nobody answers ends at its time limit', async () => {
    const garbage = await h.call('stuck_garbage', {});
    expect(textOf(garbage)).toMatch(/stuck_garbage did not finish within 500 ms/);
    expect(h.log).toContain('[stuck] (not JSON on stdout) <html>this is not JSON</html>');
    const silent = await h.call('stuck_silent', {});
    expect(textOf(silent)).toMatch(/stuck_silent did not finish within 500 ms/);
    expect(textOf(await h.call('stuck_echo', {}))).toBe('stuck:echo');
  });

  it('fails HTTP answers that are not JSON, over the cap or never come, each with why', async () => {
    expect(textOf(await h.call('remote_garbage', {}))).toMatch(
      /remote could not run garbage: .* answered with application\/json that is not JSON: "<html>Bad Gateway<\/html>"/,
    );
    expect(textOf(await h.call('remote_huge', {}))).toMatch(/its answer is over the 32 MiB the host takes/);
    expect(textOf(await h.call('remote_huge_event', {}))).toMatch(/an event is over the 32 MiB the host takes/);
    expect(textOf(await h.call('waiting_silent', {}))).toMatch(/waiting_silent did not finish within 500 ms/);
    expect(textOf(await h.call('remote_echo', {}))).toBe('ok');
  });

  it('leaves nothing behind of a child that starts a process and exits', async () => {
    const before = new Set(startedChildGroups());
    const forking = await startHostHarness(() => ({
      toolshed: { maxRestarts: 0 },
      mcpServers: { forking: scriptedServer({ forkAndExit: true }) },
    }));
    const groups = startedChildGroups().filter((group) => !before.has(group));
    try {
      expect(groups).toHaveLength(1);
      await expect.poll(() => forking.host.upstreams[0]?.state, { timeout: 5000 }).toBe('failed');
      await expect.poll(() => processesInGroups(groups), { timeout: 5000 }).toEqual([]);
    } finally {
      await forking.close();
    }
  });
});
