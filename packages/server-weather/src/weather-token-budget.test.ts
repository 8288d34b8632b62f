import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolTokenOverruns } from '../../../scripts/tool-tokens.ts';
import { startWeatherHarness, type WeatherHarness } from './__fixtures__/weather-harness.ts';

// Every tool definition is sent to the model on every turn; the budgets are in scripts/tool-tokens.ts.

let harness: WeatherHarness;

beforeAll(async () => {
  harness = await startWeatherHarness();
});

afterAll(async () => {
  await harness.close();
});

it('keeps its tool list within its token budget', async () => {
  const client = await connectTestClient({ server: harness.server }, { client: 'v1', transport: 'memory' });
  try {
    expect(toolTokenOverruns('weather', await client.listTools())).toEqual([]);
  } finally {
    await client.close();
  }
});
