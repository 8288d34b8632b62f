import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { startEachTest } from './__fixtures__/email-harness.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

const start = startEachTest();

it('keeps its tool list, attachments included, within its token budget', async () => {
  const { server } = await start({
    smtp: false,
    server: (directory) => {
      mkdirSync(join(directory, 'attachments'));
      return { attachmentsDirectory: join(directory, 'attachments') };
    },
  });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    expect(toolTokenOverruns('email', await client.listTools())).toEqual([]);
  } finally {
    await client.close();
  }
});
