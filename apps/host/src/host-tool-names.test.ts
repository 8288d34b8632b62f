import { describe, expect, it } from 'vitest';
import { scriptedServer, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { formatToolTable } from './cli/tools-command.ts';

describe('tool names that collide', () => {
  it('keeps both tools, the first in config order under the name, the later one numbered, and says so', async () => {
    const h = await startHostHarness(() => ({
      mcpServers: {
        // Listed first, answers last: config order decides, not who starts first.
        a: scriptedServer({ label: 'a', tools: { b_c: 'echo' }, initializeDelayMs: 300 }),
        a_b: scriptedServer({ label: 'a_b', tools: { c: 'echo', c_2: 'echo' } }),
      },
    }));
    try {
      const names = (await h.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['a_b_c', 'a_b_c_2', 'a_b_c_3']);
      expect(textOf(await h.call('a_b_c', {}))).toBe('a:b_c');
      // a_b's own c_2 keeps its name; its c, which collides with a's b_c, takes the next free number.
      expect(textOf(await h.call('a_b_c_2', {}))).toBe('a_b:c_2');
      expect(textOf(await h.call('a_b_c_3', {}))).toBe('a_b:c');
      expect(h.log).toContain("[a_b] tool c is named a_b_c_3: a_b_c is a's b_c, earlier in the config");
      expect(h.host.tools().find((row) => row.tool === 'a_b_c_3')).toMatchObject({
        server: 'a_b',
        upstreamTool: 'c',
        renamed: { wanted: 'a_b_c', heldBy: 'a' },
      });
      expect(formatToolTable(h.host)).toMatch(/a_b_c_3 +read-only \(renamed: a_b_c is a's\)/);
    } finally {
      await h.close();
    }
  });
});
