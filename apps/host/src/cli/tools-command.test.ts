import { describe, expect, it } from 'vitest';
import { scriptedServer } from '../__fixtures__/host-harness.ts';
import { parseHostConfig } from '../config/load-config.ts';
import { createHost } from '../create-host.ts';
import { formatToolTable, startFailures } from './tools-command.ts';

describe('toolshed tools', () => {
  it('lists what started and names what did not, without failing when some servers are up', async () => {
    const document = {
      toolshed: { audit: { enabled: false }, maxRestarts: 0 },
      mcpServers: {
        fine: scriptedServer({ label: 'fine', tools: { ok: 'echo' } }),
        missing: { command: '/nonexistent/toolshed-test-server' },
      },
    };
    const host = createHost(parseHostConfig(JSON.stringify(document), '/tmp/toolshed.json', {}), { log: () => {} });
    await host.start();
    try {
      expect(formatToolTable(host)).toMatch(/^ {2}fine_ok +read-only$/m);
      expect(startFailures(host)).toEqual({
        message: expect.stringMatching(/^1 of 2 servers did not start: missing \(.*ENOENT.*\)$/),
        exitCode: 0,
      });
    } finally {
      await host.close();
    }
  });
});
