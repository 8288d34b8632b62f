import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';

const clients = [
  ['SDK v1', () => new ClientV1({ name: 'sdk-v1', version: '1.0.0' })],
  ['SDK v2 (legacy mode)', () => new ClientV2({ name: 'sdk-v2', version: '2.0.0' })],
] as const;

describe.each(clients)('initialize with the %s client', (_name, makeClient) => {
  it('negotiates 2025-11-25 and reports identity, capabilities and instructions', async () => {
    const server = createFixtureServer();
    const client = makeClient();
    const { recording, connection } = await connectInMemory(server, client);
    expect(recording.protocolVersion).toBe('2025-11-25');
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toEqual({
      name: 'fixture',
      version: '1.2.3',
      title: 'Fixture server',
      description: 'Tools for tests',
    });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
    expect(client.getInstructions()).toBe('Use echo to test.');
    await client.ping();
    await client.close();
    expect(recording.specViolations()).toEqual([]);
  });
});

describe('version negotiation', () => {
  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2024-11-05'],
    ['2099-01-01', '2025-11-25'],
    ['not-a-version', '2025-11-25'],
  ])('a client asking for %s gets %s', async (asked, answered) => {
    const peer = await connectRawPeer(createFixtureServer());
    const response = await peer.initialize(asked);
    expect((response.result as { protocolVersion: string }).protocolVersion).toBe(answered);
    if (answered !== '2024-11-05') expect(peer.recording.specViolations()).toEqual([]);
  });

  it('sends only the serverInfo fields the negotiated revision defines', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    const response = await peer.initialize('2025-03-26');
    expect((response.result as { serverInfo: unknown }).serverInfo).toEqual({ name: 'fixture', version: '1.2.3' });
    expect(peer.recording.specViolations()).toEqual([]);
  });
});

describe('requests before initialize', () => {
  it('answers ping but refuses everything else with a clear error', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    expect(await peer.request('ping')).toMatchObject({ result: {} });
    const refused = await peer.request('tools/list');
    expect(refused.error).toEqual({
      code: -32600,
      message: 'Server not initialized: send initialize before tools/list',
    });
    const call = await peer.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect((call.error as { code: number }).code).toBe(-32600);
  });

  it('refuses a second initialize', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.initialize();
    const again = await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    expect(again.error).toMatchObject({ code: -32600, message: expect.stringContaining('already') });
  });

  it.each([
    [{}, 'protocolVersion'],
    [{ protocolVersion: 20251125 }, 'protocolVersion'],
    [{ protocolVersion: '2025-11-25', capabilities: 'all' }, 'capabilities'],
    [{ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: 'me' }, 'clientInfo'],
  ])('rejects initialize params %j with -32602 naming %s', async (params, field) => {
    const peer = await connectRawPeer(createFixtureServer());
    const response = await peer.request('initialize', params);
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringContaining(field) });
    // The connection is still usable after a bad initialize.
    const good = await peer.initialize();
    expect(good.result).toBeDefined();
    expect(peer.recording.specViolations()).toEqual([]);
  });
});

describe('two servers in one process', () => {
  it('keep their own tools and options', async () => {
    const first = createFixtureServer({ name: 'first' });
    const second = createFixtureServer({ name: 'second', tools: [] });
    const clientA = new ClientV1({ name: 'a', version: '1' });
    const clientB = new ClientV1({ name: 'b', version: '1' });
    await connectInMemory(first, clientA);
    await connectInMemory(second, clientB);
    expect((await clientA.listTools()).tools.length).toBe(8);
    expect((await clientB.listTools()).tools).toEqual([]);
    expect(clientB.getServerVersion()?.name).toBe('second');
  });
});
