import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { defineTool } from '../tools/define-tool.ts';

async function readyPeer(version = '2025-11-25') {
  const server = createFixtureServer();
  const peer = await connectRawPeer(server);
  await peer.initialize(version);
  peer.received.length = 0;
  return { peer, server };
}

describe('JSON-RPC envelope errors', () => {
  it.each([
    ['a string', 'hello', null],
    ['a number', 42, null],
    ['null', null, null],
    ['no jsonrpc member', { id: 1, method: 'ping' }, 1],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 2, method: 'ping' }, 2],
    ['id null', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, null],
    ['an id beyond 2^53', { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' }, null],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }, null],
    ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, null],
    ['a numeric method', { jsonrpc: '2.0', id: 3, method: 7 }, 3],
    ['an empty method', { jsonrpc: '2.0', id: 4, method: '' }, 4],
    ['array params', { jsonrpc: '2.0', id: 5, method: 'ping', params: [1, 2] }, 5],
    ['string params', { jsonrpc: '2.0', id: 6, method: 'ping', params: 'x' }, 6],
    ['neither method nor result', { jsonrpc: '2.0', id: 7 }, 7],
  ])('answers %s with -32600 Invalid Request', async (_name, frame, id) => {
    const { peer } = await readyPeer();
    await peer.send(frame);
    expect(peer.received).toEqual([
      { jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(/^Invalid request: /) } },
    ]);
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it('answers an unknown method with -32601, and keeps string and number ids apart', async () => {
    const { peer } = await readyPeer();
    await peer.send({ jsonrpc: '2.0', id: '1', method: 'tools/destroy' });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'nope' });
    expect(peer.received).toEqual([
      { jsonrpc: '2.0', id: '1', error: { code: -32601, message: 'Method not found: tools/destroy' } },
      { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: nope' } },
    ]);
  });

  it('never answers notifications, known or unknown, valid or not', async () => {
    const { peer } = await readyPeer();
    await peer.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: { a: 1 } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled' });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.send({ jsonrpc: '2.0', method: 'ping' });
    expect(peer.received).toEqual([]);
  });

  it('ignores responses to requests it never sent', async () => {
    const { peer } = await readyPeer();
    await peer.send({ jsonrpc: '2.0', id: 77, result: {} });
    await peer.send({ jsonrpc: '2.0', id: 78, error: { code: 1, message: 'x' } });
    expect(peer.received).toEqual([]);
  });

  it('refuses a request reusing the id of one still running', async () => {
    const { peer } = await readyPeer();
    await peer.send({
      jsonrpc: '2.0',
      id: 'dup',
      method: 'tools/call',
      params: { name: 'wait', arguments: { steps: 5 } },
    });
    await peer.send({ jsonrpc: '2.0', id: 'dup', method: 'ping' });
    expect(peer.received.at(-1)).toMatchObject({ id: 'dup', error: { code: -32600 } });
  });

  it('keeps running requests with ids 7 and "7" apart: both are taken, and cancelling "7" stops only that one', async () => {
    const { peer } = await readyPeer();
    const call = { method: 'tools/call', params: { name: 'wait', arguments: { steps: 3 } } };
    await peer.send({ jsonrpc: '2.0', id: 7, ...call });
    await peer.send({ jsonrpc: '2.0', id: '7', ...call });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '7' } });
    // Started after both and longer than either: once it is answered, "7" would have been answered too.
    expect(await peer.request('tools/call', { name: 'wait', arguments: { steps: 5 } })).toMatchObject({ result: {} });
    const answers = peer.received.filter((message) => (message as { id?: unknown }).id !== undefined);
    expect(answers.slice(0, -1)).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'waited 3 steps' }] } },
    ]);
  });

  it('answers an engine failure with -32603 that holds no stack or path, and keeps serving', async () => {
    const explosive = defineTool({
      name: 'explosive',
      description: 'Its input validation itself throws, outside the tool.',
      input: z.object({ x: z.string() }).refine(() => {
        throw new Error('EACCES at /home/alice/project/src/secret.ts:12:3');
      }),
      run: () => 'never',
    });
    const server = createFixtureServer({ tools: [explosive] });
    const peer = await connectRawPeer(server);
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'explosive', arguments: { x: 'y' } });
    expect(response.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(peer.received)).not.toMatch(/alice|secret|\.ts:/);
    expect(server.serverErrors).toEqual([expect.stringContaining('EACCES')]);
    expect(await peer.request('ping')).toMatchObject({ result: {} });
    expect(peer.recording.specViolations()).toEqual([]);
  });
});

describe('batches', () => {
  it('are processed in 2025-03-26, answering only the requests', async () => {
    const { peer } = await readyPeer('2025-03-26');
    await peer.send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' } } },
      { jsonrpc: '2.0', id: 3, method: 'nope' },
      { jsonrpc: '2.0', id: 4, method: 'initialize', params: {} },
      'garbage',
    ]);
    expect(peer.received).toEqual([
      [
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'b' }] } },
        { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found: nope' } },
        { jsonrpc: '2.0', id: 4, error: { code: -32600, message: expect.stringContaining('batch') } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      ],
    ]);
    expect(peer.recording.specViolations()).toEqual([]);
  });

  it('of notifications only get no answer at all', async () => {
    const { peer } = await readyPeer('2025-03-26');
    await peer.send([
      { jsonrpc: '2.0', method: 'notifications/a' },
      { jsonrpc: '2.0', method: 'notifications/b' },
    ]);
    expect(peer.received).toEqual([]);
  });

  it('that are empty get one Invalid Request', async () => {
    const { peer } = await readyPeer('2025-03-26');
    await peer.send([]);
    expect(peer.received).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: empty batch' } },
    ]);
  });

  it.each(['2025-06-18', '2025-11-25', '2024-11-05'])('are refused in %s', async (version) => {
    const { peer } = await readyPeer(version);
    await peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(peer.received).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining(`protocol version ${version}`) },
      },
    ]);
  });

  it('are refused before initialize', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(peer.received).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: batches are not accepted before initialize' },
      },
    ]);
  });
});
