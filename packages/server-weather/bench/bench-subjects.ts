/**
 * The two weather servers the bench compares, each connected to the official
 * SDK client over a bare in-memory transport pair (nothing between them that
 * one side pays for and the other does not), and the calls it makes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createInMemoryTransportPair } from '@toolshed/mcp-core';
import * as z from 'zod';
import { createWeatherServer } from '../src/index.ts';

export type SubjectName = 'ours' | 'anchor';

export interface Subject {
  name: string;
  client: Client;
  close(): Promise<void>;
}

export const currentVariables =
  'temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,precipitation,weather_code,cloud_cover,pressure_msl,wind_speed_10m,wind_direction_10m,wind_gusts_10m,uv_index,is_day';

/** The weather server as it is usually written: fetch per call, the text of the answer back. */
function createAnchorServer(upstreamUrl: string): SdkMcpServer {
  const server = new SdkMcpServer({ name: 'anchor-weather', version: '1.0.0' });
  server.registerTool(
    'get_current_weather',
    {
      description: 'Current weather at a point',
      inputSchema: { latitude: z.number(), longitude: z.number() },
    },
    async ({ latitude, longitude }) => {
      const url = `${upstreamUrl}/v1/forecast?latitude=${latitude}&longitude=${longitude}&current=${currentVariables}&timezone=auto&timeformat=unixtime`;
      const response = await fetch(url, { headers: { 'user-agent': 'anchor-weather/1.0' } });
      const data = (await response.json()) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(data.current) }] };
    },
  );
  return server;
}

async function startOurs(upstreamUrl: string): Promise<Subject> {
  const server = createWeatherServer({
    upstreams: { forecastUrl: upstreamUrl, geocodingUrl: upstreamUrl, airQualityUrl: upstreamUrl, nwsUrl: upstreamUrl },
    contact: 'bench@example.com',
    // BENCH_MAX_CONNECTIONS tries another connection cap than the default.
    ...(process.env.BENCH_MAX_CONNECTIONS
      ? { limits: { maxConnections: Number(process.env.BENCH_MAX_CONNECTIONS) } }
      : {}),
  });
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  // The pair's client end is shaped like the SDK's Transport but typed with mcp-core's own message type.
  await client.connect(clientSide as Parameters<Client['connect']>[0]);
  return subject('ours', client, server);
}

async function startAnchor(upstreamUrl: string): Promise<Subject> {
  const server = createAnchorServer(upstreamUrl);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return subject('SDK + fetch', client, server);
}

/** A connected pair as the bench uses it; closing ends the client, then the server. */
function subject(name: string, client: Client, server: { close(): Promise<void> }): Subject {
  return {
    name,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export function startSubject(name: SubjectName, upstreamUrl: string): Promise<Subject> {
  return name === 'ours' ? startOurs(upstreamUrl) : startAnchor(upstreamUrl);
}

/** One get_current_weather call; its latency in ms. A tool error stops the run. */
export async function callOnce(subject: Subject, latitude: number, longitude: number): Promise<number> {
  const started = performance.now();
  const result = await subject.client.callTool({ name: 'get_current_weather', arguments: { latitude, longitude } });
  if (result.isError) throw new Error(`${subject.name}: ${JSON.stringify(result.content)}`);
  return performance.now() - started;
}

/**
 * Each burst process (burst-rounds.ts) warms the uncached path with
 * `warmUpRounds` bursts before it measures `measuredRounds`: both servers'
 * code is compiled by the optimizing tiers before a round counts.
 */
export const burstShape = { callsPerBurst: 100, warmUpRounds: 50, measuredRounds: 15 } as const;

export interface MeasuredBurst {
  latencies: number[];
  wallMs: number;
  /** CPU time of the whole process (client, server, undici, GC threads), not the upstream's. */
  cpuMs: number;
}

/**
 * Points no earlier round asked for, so nothing is answered from a cache:
 * round N's call i. Latitudes stay within ±60 (the upstream refuses more),
 * a thousand rounds to each longitude.
 */
export function burstPoint(round: number, index: number): { latitude: number; longitude: number } {
  return { latitude: -60 + (round % 1000) * 0.12 + index * 0.001, longitude: -170 + Math.floor(round / 1000) * 0.5 };
}
