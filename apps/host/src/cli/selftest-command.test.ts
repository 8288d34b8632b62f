import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptedServer } from '../__fixtures__/host-harness.ts';
import { parseHostConfig } from '../config/load-config.ts';
import { createHost, type Host } from '../create-host.ts';
import { runSelftest } from './selftest-command.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-selftest-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function startedHost(servers: Record<string, unknown>): Promise<Host> {
  const document = { toolshed: { audit: { enabled: false }, maxRestarts: 0 }, mcpServers: servers };
  const host = createHost(parseHostConfig(JSON.stringify(document), join(directory, 'toolshed.json'), {}), {
    log: () => {},
  });
  await host.start();
  return host;
}

describe('toolshed selftest', () => {
  it('passes servers whose tools answer, even with an error of their own', async () => {
    const host = await startedHost({
      fine: scriptedServer({ label: 'fine', tools: { ok: 'echo', offline: 'tool-error' } }),
    });
    const report = await runSelftest(host);
    expect(report.text).toMatch(/✓ fine: up, 2 tools/);
    expect(report.text).toMatch(/fine_ok: ok in \d+ ms/);
    expect(report.text).toMatch(/fine_offline: answered with an error \(offline is offline\) in \d+ ms/);
    expect(report.text).toMatch(/processes: \d+ child process groups? started, 0 processes left/);
    expect(report.passed).toBe(true);
  });

  it('fails when a tool’s server answers with a JSON-RPC error, crashes or never answers', async () => {
    const host = await startedHost({
      erring: scriptedServer({ label: 'erring', tools: { boom: 'rpc-error' } }),
      crashing: scriptedServer({ label: 'crashing', tools: { die: 'crash' } }),
      silent: { ...scriptedServer({ label: 'silent', tools: { wait: 'silent' } }), toolTimeoutMs: 200 },
    });
    const report = await runSelftest(host);
    expect(report.text).toMatch(/erring_boom: FAILED — erring refused the call: boom blew up/);
    expect(report.text).toMatch(/crashing_die: FAILED — /);
    expect(report.text).toMatch(/✗ crashing: (down|failed) after its calls/);
    expect(report.text).toMatch(/silent_wait: FAILED — silent_wait did not finish within 200 ms/);
    expect(report.text).toMatch(/selftest FAILED/);
    expect(report.passed).toBe(false);
  });

  it('says "skipped" for the leftover check where there is no process table, rather than passing it', async () => {
    const host = await startedHost({ fine: scriptedServer({ label: 'fine', tools: { ok: 'echo' } }) });
    const report = await runSelftest(host, { procDirectory: join(directory, 'no-proc') });
    expect(report.text).toMatch(/processes: skipped — no process table/);
    expect(report.text).not.toMatch(/0 processes left/);
  });
});
