import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { createSandbox, type Sandbox } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

let sandbox: Sandbox;

beforeAll(() => {
  sandbox = createSandbox();
});

afterAll(() => {
  sandbox.remove();
});

it('keeps its tool list, write tools included, within its token budget', async () => {
  const server = createFilesystemServer({ directories: [sandbox.allowed] });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  try {
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('write_file');
    expect(toolTokenOverruns('filesystem', tools)).toEqual([]);
  } finally {
    await client.close();
    await server.close();
  }
});
