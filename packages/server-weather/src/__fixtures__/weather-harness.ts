import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@toolshed/mcp-core';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import { createWeatherServer } from '../create-weather-server.ts';
import type { WeatherServerOptions } from '../weather-server-options.ts';
import { startWeatherUpstream, type WeatherUpstream } from './weather-upstream.ts';

export type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

export interface WeatherHarness {
  upstream: WeatherUpstream;
  server: McpServer;
  client: Client;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallResult>;
  specViolations(): unknown[];
  close(): Promise<void>;
}

/** A weather server whose upstreams all point at a local fixture upstream, driven by the official SDK client in memory. */
export async function startWeatherHarness(options: WeatherServerOptions = {}): Promise<WeatherHarness> {
  const upstream = await startWeatherUpstream();
  const server = createWeatherServer({
    contact: 'weather-tests@example.com',
    ...options,
    upstreams: {
      forecastUrl: upstream.url,
      archiveUrl: upstream.url,
      geocodingUrl: upstream.url,
      airQualityUrl: upstream.url,
      nwsUrl: upstream.url,
      meteoalarmUrl: upstream.url,
      environmentCanadaUrl: upstream.url,
      ...options.upstreams,
    },
    limits: { retryDelayMs: 5, ...options.limits },
  });
  const client = new Client({ name: 'weather-test', version: '1' });
  const { recording } = await connectInMemory(server, client);
  return {
    upstream,
    server,
    client,
    call: async (name, args, callOptions) =>
      (await client.callTool({ name, arguments: args }, undefined, callOptions)) as CallResult,
    specViolations: () => recording.specViolations(),
    async close() {
      await client.close();
      await server.close();
      await upstream.close();
    },
  };
}

/** The text of a result's first block. */
export function textOf(result: CallResult): string {
  return result.content[0]?.text ?? '';
}
