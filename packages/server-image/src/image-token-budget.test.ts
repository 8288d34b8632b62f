import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countToolListTokens, toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
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
    const tools = await client.listTools();
    expect(toolTokenOverruns('image', tools)).toEqual([]);
    // This server's own bar, under the shared budget: every tool together within 700 tokens.
    expect(countToolListTokens(tools).total).toBeLessThanOrEqual(700);
  } finally {
    await client.close();
  }
});
