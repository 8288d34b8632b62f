import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptedServer } from '../__fixtures__/host-harness.ts';
import { parseHostConfig } from '../config/load-config.ts';
import { createHost } from '../create-host.ts';
import { formatToolTable, startFailures } from './tools-command.ts';

const bin = new URL('../cli.ts', import.meta.url).pathname;
const directory = mkdtempSync(join(tmpdir(), 'toolshed-tools-command-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** One server that starts and two that do not: one whose command does not exist, one that exits at once. */
const oneGoodTwoBroken = {
  toolshed: { audit: { enabled: false }, maxRestarts: 0 },
  mcpServers: {
    fine: scriptedServer({ label: 'fine', tools: { ok: 'echo' } }),
    missing: { command: join(directory, 'no-such-server') },
    quitter: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
  },
};

function runTools(config: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, 'tools', '--config', config],
      { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: join(directory, 'state') } },
      (error, stdout, stderr) => resolve({ status: error === null ? 0 : (child.exitCode ?? null), stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('toolshed tools', () => {
  it('lists what started, names what did not, and fails when any server did not start', async () => {
    const host = createHost(parseHostConfig(JSON.stringify(oneGoodTwoBroken), join(directory, 'toolshed.json'), {}), {
      log: () => {},
    });
    await host.start();
    try {
      expect(formatToolTable(host)).toMatch(/^ {2}fine_ok +read-only$/m);
      expect(startFailures(host)).toEqual({
        message: expect.stringMatching(/^2 of 3 servers did not start: missing \(.*ENOENT.*\); quitter \(.+\)$/),
        exitCode: 1,
      });
    } finally {
      await host.close();
    }
  });

  it('exits 1 from the bin when one of several servers did not start, naming it on stderr', async () => {
    const config = join(directory, 'one-broken.json');
    writeFileSync(
      config,
      JSON.stringify({
        ...oneGoodTwoBroken,
        mcpServers: { fine: oneGoodTwoBroken.mcpServers.fine, missing: oneGoodTwoBroken.mcpServers.missing },
      }),
    );
    const result = await runTools(config);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^ {2}fine_ok +read-only$/m);
    expect(result.stderr).toMatch(/^toolshed tools: 1 of 2 servers did not start: missing \(.*ENOENT.*\)$/m);
    expect(result.stderr).not.toMatch(/fine \(/);
  });

  it('exits 0 from the bin when every server started', async () => {
    const config = join(directory, 'all-fine.json');
    writeFileSync(
      config,
      JSON.stringify({ ...oneGoodTwoBroken, mcpServers: { fine: oneGoodTwoBroken.mcpServers.fine } }),
    );
    const result = await runTools(config);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/did not start/);
  });
});
