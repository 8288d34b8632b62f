import { PassThrough } from 'node:stream';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { initializeFrame, type StdioPeer, spawnStdioPeer, stdioFixtureServerPath } from '../__fixtures__/stdio-peer.ts';
import { recordMessages } from '../testing/message-recorder.ts';
import { createStdioServerTransport } from './stdio-server-transport.ts';

const peers: StdioPeer[] = [];
function spawnPeer(env: Record<string, string> = {}): StdioPeer {
  const peer = spawnStdioPeer(env);
  peers.push(peer);
  return peer;
}
afterEach(() => {
  for (const peer of peers.splice(0)) {
    peer.child.kill('SIGKILL');
    expect(peer.specViolations()).toEqual([]);
  }
});

describe('over real stdio with the official clients', () => {
  it('SDK v1: lists, calls, gets progress and cancels, all schema-valid', async () => {
    const recording = recordMessages(
      new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath], stderr: 'pipe' }),
    );
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(recording.transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('noisy');
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      structuredContent: { sum: 5 },
    });
    const seen: number[] = [];
    // Steps far enough apart to arrive in separate reads. The v1 client drops progress that
    // arrives in the same read as the response, which on a loaded machine can happen to the
    // last step (sent just before the result): the server sent it, the recording shows.
    await client.callTool({ name: 'wait', arguments: { steps: 3, stepMs: 25 } }, undefined, {
      onprogress: (progress) => seen.push(progress.progress),
    });
    expect([
      [1, 2],
      [1, 2, 3],
    ]).toContainEqual(seen);
    const sentProgress = recording.messages
      .map(({ message }) => message as { method?: string; params?: { progress?: number } })
      .filter((message) => message.method === 'notifications/progress' && message.params?.progress !== undefined)
      .map((message) => message.params?.progress)
      .slice(-3);
    expect(sentProgress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'wait', arguments: { steps: 500 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 30);
    await expect(cancelled).rejects.toThrow();
    expect(await client.callTool({ name: 'noisy', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'quiet on stdout' }],
    });
    await client.close();
    expect(recording.specViolations()).toEqual([]);
  });

  it('SDK v2 (legacy mode): lists and calls', async () => {
    const recording = recordMessages(
      new StdioClientTransportV2({ command: process.execPath, args: [stdioFixtureServerPath], stderr: 'pipe' }),
    );
    const client = new ClientV2({ name: 'v2', version: '1' });
    await client.connect(recording.transport);
    expect((await client.listTools()).tools).toHaveLength(10);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'ünï 🙂' } })).toMatchObject({
      content: [{ type: 'text', text: 'ünï 🙂' }],
    });
    await client.close();
    expect(recording.protocolVersion).toBe('2025-11-25');
    expect(recording.specViolations()).toEqual([]);
  });
});

describe('stdio framing', () => {
  it('reassembles a message split across writes, with CRLF and UTF-8 split mid-character', async () => {
    const peer = spawnPeer();
    await peer.write(initializeFrame);
    const frame = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '€uro 😀' } } })}\r\n`,
    );
    const euro = frame.indexOf(Buffer.from('€'));
    const parts = [
      frame.subarray(0, 10),
      frame.subarray(10, euro + 1),
      frame.subarray(euro + 1, euro + 2),
      frame.subarray(euro + 2),
    ];
    for (const part of parts) {
      await peer.write(part);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await peer.waitFor((messages) => messages.some((message) => message.id === 1));
    expect(peer.messages.find((message) => message.id === 1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '€uro 😀' }] },
    });
  });

  it('takes several messages in one write, and skips blank lines', async () => {
    const peer = spawnPeer();
    const pings = [1, 2, 3].map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })).join('\n\n  \n');
    await peer.write(`${pings}\n`);
    await peer.waitFor((messages) => messages.length === 3);
    expect(peer.messages.map((message) => message.id)).toEqual([1, 2, 3]);
  });

  it('answers a line that is not JSON with -32700 and id null, and goes on', async () => {
    const peer = spawnPeer();
    await peer.write('{"jsonrpc": "2.0", "id": 1, "method": "ping"\n');
    await peer.write('not json at all\n');
    const ping = await peer.request(2, 'ping');
    expect(ping).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(peer.messages.slice(0, 2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON' } },
    ]);
  });

  it('refuses a line over the cap with one clear error, without buffering it, and goes on', async () => {
    const peer = spawnPeer({ FIXTURE_MAX_LINE_BYTES: '1000' });
    await peer.write(initializeFrame);
    const long = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'y'.repeat(5000) } },
    });
    // Sent in pieces, so that the cap trips before the newline arrives.
    for (let offset = 0; offset < long.length; offset += 700) await peer.write(long.slice(offset, offset + 700));
    await peer.write('\n');
    const after = await peer.request(6, 'tools/call', { name: 'echo', arguments: { text: 'short' } });
    expect(after).toMatchObject({ result: { content: [{ text: 'short' }] } });
    expect(peer.messages.filter((message) => message.id === null)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid request: message longer than the 1000-byte line limit' },
      },
    ]);
    expect(peer.messages.some((message) => message.id === 5)).toBe(false);
  });

  it('keeps console output off stdout', async () => {
    const peer = spawnPeer();
    await peer.write(initializeFrame);
    const result = await peer.request(1, 'tools/call', { name: 'noisy', arguments: {} });
    expect(result).toMatchObject({ result: { content: [{ text: 'quiet on stdout' }] } });
    expect(peer.strayStdout).toEqual([]);
    await peer.waitFor(() => peer.stderr().includes('warn line'));
    expect(peer.stderr()).toContain('log line');
    expect(peer.stderr()).toContain('info line');
  });
});

describe('stdio process life', () => {
  it('exits 0 when stdin ends', async () => {
    const peer = spawnPeer();
    await peer.write(initializeFrame);
    await peer.request(1, 'ping');
    peer.child.stdin.end();
    expect(await peer.exited).toEqual({ code: 0, signal: null });
  });

  it('exits on SIGTERM even with a call in flight', async () => {
    const peer = spawnPeer();
    await peer.write(initializeFrame);
    await peer.request(1, 'ping');
    await peer.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: { steps: 10000 } } })}\n`,
    );
    peer.child.kill('SIGTERM');
    const exit = await peer.exited;
    expect(exit.code).toBe(143);
  });
});

describe('stdio backpressure', () => {
  it('pauses reading while the client does not read, and resumes when it drains', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 });
    const transport = createStdioServerTransport({ input, output });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    const sent = transport.send({ jsonrpc: '2.0', id: 1, result: { blob: 'z'.repeat(4096) } });
    // Answers go out together once the turn's work is done.
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);
    let sentSettled = false;
    const second = transport.send({ jsonrpc: '2.0', id: 2, result: {} }).then(() => {
      sentSettled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sentSettled).toBe(false);
    output.read(); // the client reads
    await Promise.all([sent, second]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(false);
    input.write('{"jsonrpc":"2.0","method":"x"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'x' }]);
    const lines = String(output.read()).split('\n').filter(Boolean);
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([2]);
  });

  it('delivers large results intact to a slow reader', async () => {
    const peer = spawnPeer();
    await peer.write(initializeFrame);
    await peer.request('ready', 'ping');
    peer.child.stdout.pause();
    const frames = Array.from({ length: 40 }, (_, index) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: index,
        method: 'tools/call',
        params: { name: 'big', arguments: { kib: 256 } },
      }),
    );
    await peer.write(`${frames.join('\n')}\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    peer.child.stdout.resume();
    await peer.waitFor(
      (messages) => messages.filter((message) => typeof message.id === 'number').length === 40,
      20_000,
    );
    for (const message of peer.messages.filter((item) => typeof item.id === 'number')) {
      expect(((message.result as { content: { text: string }[] }).content[0]?.text ?? '').length).toBe(256 * 1024);
    }
    expect(peer.strayStdout).toEqual([]);
  });
});

describe('stdio writes', () => {
  /** A started transport over in-memory streams, and every chunk written to its output. */
  async function startedWithWrites() {
    const output = new PassThrough();
    const writes: string[] = [];
    output.on('data', (chunk: Buffer) => writes.push(String(chunk)));
    const transport = createStdioServerTransport({ input: new PassThrough(), output });
    await transport.start();
    return { transport, writes };
  }

  it('sends the answers made in one turn in one write, in the order they were made', async () => {
    const { transport, writes } = await startedWithWrites();
    await Promise.all([1, 2, 3].map((id) => transport.send({ jsonrpc: '2.0', id, result: {} })));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]
        ?.split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual([1, 2, 3]);
  });

  it('writes a large answer whole, at its place among the answers of its turn', async () => {
    const { transport, writes } = await startedWithWrites();
    const big = 'y'.repeat(100_000);
    await Promise.all([
      transport.send({ jsonrpc: '2.0', id: 1, result: {} }),
      transport.send({ jsonrpc: '2.0', id: 2, result: { big } }),
      transport.send({ jsonrpc: '2.0', id: 3, result: {} }),
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    const messages = writes
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result: { big?: string } });
    expect(messages.map((message) => message.id)).toEqual([1, 2, 3]);
    expect(messages[1]?.result.big).toBe(big);
  });

  it('writes what was answered before stdin ended, before closing', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = createStdioServerTransport({ input, output });
    let closedWith = '';
    transport.onclose = () => {
      closedWith = String(output.read() ?? '');
    };
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} });
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(closedWith).id).toBe(7);
  });
});
