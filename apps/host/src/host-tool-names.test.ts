import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scriptedServer, startHostHarness, textOf } from './__fixtures__/host-harness.ts';
import { formatToolTable } from './cli/tools-command.ts';

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
const aBC = `a_b_c-${digestOf('a/b_c')}`;
const aBthenC = `a_b_c-${digestOf('a_b/c')}`;

const servers = {
  // Slow to start: neither config order nor who starts first decides a name.
  a: scriptedServer({ label: 'a', tools: { b_c: 'echo' }, initializeDelayMs: 300 }),
  a_b: scriptedServer({ label: 'a_b', tools: { c: 'echo', c_2: 'echo' } }),
};

describe('tool names that collide', () => {
  it.each([
    ['a first', ['a', 'a_b']],
    ['a_b first', ['a_b', 'a']],
  ] as const)(
    'keeps both tools under names of their own, the same in any config order (%s), and says so',
    async (_label, order) => {
      const h = await startHostHarness(() => ({
        mcpServers: Object.fromEntries(order.map((name) => [name, servers[name]])),
      }));
      try {
        const names = (await h.client.listTools()).tools.map((tool) => tool.name).sort();
        expect(names).toEqual([aBC, aBthenC, 'a_b_c_2'].sort());
        // Neither has the name both want: it calls nothing, rather than whichever server came first.
        expect(names).not.toContain('a_b_c');
        expect(textOf(await h.call(aBC, {}))).toBe('a:b_c');
        expect(textOf(await h.call(aBthenC, {}))).toBe('a_b:c');
        // a_b's own c_2 keeps its name.
        expect(textOf(await h.call('a_b_c_2', {}))).toBe('a_b:c_2');
        expect(h.log).toContain(
          `[a_b] tool c is named ${aBthenC}: a_b_c is also wanted by a's b_c (a "prefix" on one of the servers gives plain names)`,
        );
        expect(h.host.tools().find((row) => row.tool === aBthenC)).toMatchObject({
          server: 'a_b',
          upstreamTool: 'c',
          renamed: { wanted: 'a_b_c', sharedWith: ['a'] },
        });
        expect(formatToolTable(h.host)).toContain(`${aBthenC}  read-only (renamed: a_b_c is also wanted by a)`);
      } finally {
        await h.close();
      }
    },
  );
});
