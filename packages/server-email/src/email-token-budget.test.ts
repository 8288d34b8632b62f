import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { countToolListTokens, toolTokenBudget, toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { startEachTest } from './__fixtures__/email-harness.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

const start = startEachTest();

it('keeps its tool list, attachments and the IMAP read tools included, within its token budget', async () => {
  const { server } = await start({
    smtp: false,
    server: (directory) => {
      mkdirSync(join(directory, 'attachments'));
      return {
        attachmentsDirectory: join(directory, 'attachments'),
        imap: { host: '127.0.0.1', user: 'reader@example.com', password: 'unused' },
      };
    },
  });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    expect(toolTokenOverruns('email', await client.listTools())).toEqual([]);
  } finally {
    await client.close();
  }
});

it('keeps every tool within the per-tool budget with reading, saving and mailbox changes on, and reports the cost', async () => {
  const { server } = await start({
    smtp: false,
    server: (directory) => {
      mkdirSync(join(directory, 'attachments'));
      return {
        attachmentsDirectory: join(directory, 'attachments'),
        imap: { host: '127.0.0.1', user: 'reader@example.com', password: 'unused' },
        saveDirectory: join(directory, 'attachments'),
        allowMailboxChanges: true,
      };
    },
  });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    const tools = await client.listTools();
    const counted = countToolListTokens(tools);
    expect(counted.tools.filter((tool) => tool.tokens > toolTokenBudget)).toEqual([]);
    const reading = counted.tools
      .filter((tool) => ['list_mailboxes', 'search_messages', 'read_message'].includes(tool.name))
      .reduce((sum, tool) => sum + tool.tokens, 0);
    // What turning IMAP on adds to every turn: held here so that it only grows on purpose.
    expect(reading).toBeLessThanOrEqual(300);
  } finally {
    await client.close();
  }
});
