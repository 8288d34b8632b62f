import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostConfig } from './config/load-config.ts';
import { createHost } from './create-host.ts';

let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-options-'));
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeConfig(servers: Record<string, unknown>): string {
  const path = join(directory, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ mcpServers: servers }));
  return path;
}

describe('options of our packages, checked by their own schemas before anything starts', () => {
  it.each([
    [
      '@toolshed/server-sql',
      { databases: 'shop.db', limits: { maxRowz: 5 } },
      /server "sql" \(@toolshed\/server-sql\) options: unknown option "maxRowz" at limits\.maxRowz; did you mean "maxRows"\?/,
    ],
    [
      '@toolshed/server-filesystem',
      { directories: ['.'], limits: { maxEntrys: 5 } },
      /unknown option "maxEntrys" at limits\.maxEntrys; did you mean "maxEntries"\?/,
    ],
    [
      '@toolshed/server-weather',
      { forcastUrl: 'https://example.com' },
      /unknown option "forcastUrl" at forcastUrl; did you mean "upstreams\.forecastUrl"\?/,
    ],
    [
      '@toolshed/server-email',
      { outboxDirectory: '.', limits: { maxRecipient: 2 } },
      /unknown option "maxRecipient" at limits\.maxRecipient; did you mean "maxRecipients"\?/,
    ],
    [
      '@toolshed/server-image',
      { directories: ['.'], limits: { maxFramez: 2 } },
      /unknown option "maxFramez" at limits\.maxFramez; did you mean "maxFrames"\?/,
    ],
  ])('refuses a typo in %s options', async (name, options, message) => {
    const host = createHost(loadHostConfig(writeConfig({ [name]: options }), process.env), { log: () => {} });
    try {
      const started = host.start();
      await expect(started).rejects.toThrow(message);
      await started.catch((error: unknown) =>
        expect(LocalError.isInstance(error) && error.code).toBe('config_invalid'),
      );
      expect(host.upstreams.every((upstream) => upstream.state !== 'up')).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('makes the bin exit 2 with one line naming the server, the key and the closest valid name', async () => {
    const config = writeConfig({ '@toolshed/server-sql': { databases: join(directory, 'none.db'), timeoutMS: 5 } });
    const bin = new URL('./cli.ts', import.meta.url).pathname;
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [bin, 'tools', '--config', config],
        { encoding: 'utf8' },
        (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /server "sql".*unknown option "timeoutMS" at timeoutMS; did you mean "limits\.timeoutMs"\?/,
    );
  });
});
