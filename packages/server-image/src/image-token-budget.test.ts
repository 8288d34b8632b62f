import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { type ImageHarness, startImageHarness } from './__fixtures__/image-harness.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

let h: ImageHarness;

beforeAll(async () => {
  h = await startImageHarness();
});

afterAll(async () => {
  await h.close();
});

it('keeps its tool list within its token budget, every tool included', async () => {
  const client = await connectTestClient({ server: h.server }, { client: 'v1', transport: 'memory' });
  try {
    expect(toolTokenOverruns('image', await client.listTools())).toEqual([]);
  } finally {
    await client.close();
  }
});
