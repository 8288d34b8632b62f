import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, type TestClientKind } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { parseHostConfig } from './config/load-config.ts';
import { createHost, type Host } from './create-host.ts';

let directory: string;
let workspace: string;
let host: Host;

async function lastAuditLine(): Promise<Record<string, unknown>> {
  return (await auditLines(join(directory, 'audit.jsonl'))).at(-1) ?? {};
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-approval-answers-'));
  workspace = join(directory, 'workspace');
  mkdirSync(workspace);
  host = createHost(
    parseHostConfig(
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') }, approval: { mode: 'elicit' } },
        mcpServers: { '@toolshed/server-filesystem': { directories: [workspace] } },
      }),
      join(directory, 'toolshed.json'),
    ),
    { log: () => {} },
  );
  await host.start();
});

afterAll(async () => {
  await host.close();
  rmSync(directory, { recursive: true, force: true });
});

const kinds: TestClientKind[] = ['v1', 'v2-legacy', 'v2-modern'];

/** Answers to the approval question that a client accepted but that are not a yes. */
const notAYes: [string, Record<string, unknown>][] = [
  ['the wrong field', { confirm: true }],
  ['a string for the checkbox', { confirmed: 'yes' }],
  ['an unchecked box', { confirmed: false }],
];

describe('answers to the approval question', () => {
  describe.each(kinds)('%s client', (kind) => {
    it.each(notAYes)('%s is an answer that was not a yes, not a client that cannot ask', async (label, content) => {
      const client = await connectTestClient(
        { server: host.server },
        { client: kind, transport: 'memory', onElicit: () => ({ action: 'accept', content }) },
      );
      try {
        const target = join(workspace, `${kind}-${label.replaceAll(' ', '-')}.txt`);
        const result = await client.callTool('filesystem_write_file', { path: target, content: 'x' });
        expect(result.isError).toBe(true);
        const text = result.content[0]?.text ?? '';
        expect(text).toMatch(
          /^The user's answer to the approval question was not a yes; filesystem_write_file was not run\./,
        );
        expect(text).not.toMatch(/cannot ask/);
        expect(existsSync(target)).toBe(false);
        expect(await lastAuditLine()).toMatchObject({
          tool: 'filesystem_write_file',
          approval: 'declined',
          outcome: 'refused',
        });
        expect(client.recording.specViolations()).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('an explicit yes runs the tool', async () => {
      const client = await connectTestClient(
        { server: host.server },
        { client: kind, transport: 'memory', onElicit: () => ({ action: 'accept', content: { confirmed: true } }) },
      );
      try {
        const target = join(workspace, `${kind}-yes.txt`);
        const result = await client.callTool('filesystem_write_file', { path: target, content: 'yes' });
        expect(result.isError, result.content[0]?.text).toBeFalsy();
        expect(readFileSync(target, 'utf8')).toBe('yes');
        const lines = await auditLines(join(directory, 'audit.jsonl'));
        // A 2026-era attempt that ends to ask is a line of its own, ended, not left as a call that never ends.
        const expected =
          kind === 'v2-modern'
            ? [
                { approval: 'asked', outcome: 'input_required' },
                { approval: 'approved', outcome: 'ok' },
              ]
            : [{ approval: 'approved', outcome: 'ok' }];
        expect(lines.slice(-expected.length)).toMatchObject(expected);
        expect(lines.at(-expected.length - 1)).not.toMatchObject({ approval: 'asked' });
      } finally {
        await client.close();
      }
    });
  });
});
