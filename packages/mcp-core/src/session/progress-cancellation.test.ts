import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';
import { defineTool } from '../tools/define-tool.ts';

describe('progress', () => {
  it('reaches the SDK v1 client, increasing, before the response', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const seen: number[] = [];
    const result = await client.callTool({ name: 'wait', arguments: { steps: 5, stepMs: 1 } }, undefined, {
      onprogress: (progress) => {
        seen.push(progress.progress);
        expect(progress.total).toBe(5);
      },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'waited 5 steps' }]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(recording.specViolations()).toEqual([]);
  });

  it('reaches the SDK v2 client', async () => {
    const client = new ClientV2({ name: 't', version: '1' });
    await connectInMemory(createFixtureServer(), client);
    const seen: number[] = [];
    await client.callTool(
      { name: 'wait', arguments: { steps: 3, stepMs: 1 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(seen).toEqual([1, 2, 3]);
  });

  it('is not sent without a progress token, nor after the response', async () => {
    let report: ((done: number) => void) | undefined;
    const leaky = defineTool({
      name: 'leaky',
      description: 'Keeps its progress function past the response.',
      input: z.object({}),
      run(_args, context) {
        report = (done) => context.progress(done);
        context.progress(1);
        return 'done';
      },
    });
    const peer = await connectRawPeer(createMcpServer({ name: 's', version: '1', tools: [leaky] }));
    await peer.initialize();
    peer.received.length = 0;
    await peer.request('tools/call', { name: 'leaky', arguments: {} });
    expect(peer.received).toHaveLength(1); // the response only
    await peer.request('tools/call', { name: 'leaky', arguments: {}, _meta: { progressToken: 'p1' } });
    report?.(2);
    await peer.settle();
    expect(peer.received.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } },
      expect.objectContaining({ result: expect.anything() }),
    ]);
    expect(peer.recording.specViolations()).toEqual([]);
  });
});

describe('cancellation', () => {
  it('aborts the tool signal; no response follows', async () => {
    let aborted: unknown;
    const started = Promise.withResolvers<void>();
    const hang = defineTool({
      name: 'hang',
      description: 'Waits until cancelled.',
      input: z.object({}),
      run: (_args, context) =>
        new Promise<string>((resolve) => {
          started.resolve();
          context.signal.addEventListener('abort', () => {
            aborted = context.signal.reason;
            resolve('finished anyway');
          });
        }),
    });
    const peer = await connectRawPeer(createMcpServer({ name: 's', version: '1', tools: [hang] }));
    await peer.initialize();
    peer.received.length = 0;
    await peer.send({ jsonrpc: '2.0', id: 'h1', method: 'tools/call', params: { name: 'hang', arguments: {} } });
    await started.promise;
    await peer.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'h1', reason: 'user hit stop' },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(String(aborted)).toContain('user hit stop');
    expect(peer.received).toEqual([]);
    // The id is free again, and the server still answers.
    expect(await peer.request('ping')).toMatchObject({ result: {} });
  });

  it('through the SDK v1 client AbortSignal stops a long call', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    const controller = new AbortController();
    let steps = 0;
    const call = client.callTool({ name: 'wait', arguments: { steps: 1000, stepMs: 2 } }, undefined, {
      signal: controller.signal,
      onprogress: () => {
        steps++;
        if (steps === 3) controller.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const sent = recording.messages.filter((entry) => entry.direction === 'to-server').map((entry) => entry.message);
    expect(sent).toContainEqual(expect.objectContaining({ method: 'notifications/cancelled' }));
    const progressAfterCancel = recording.messages.filter(
      (entry) =>
        entry.direction === 'to-client' && (entry.message as { method?: string }).method === 'notifications/progress',
    );
    expect(progressAfterCancel.length).toBeLessThan(10);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'after' } })).toMatchObject({
      content: [{ text: 'after' }],
    });
    expect(recording.specViolations()).toEqual([]);
  });

  it('that races a finished request is ignored', async () => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: response.id } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-was' } });
    expect(await peer.request('ping')).toMatchObject({ result: {} });
  });

  it('of every in-flight call happens when the connection closes', async () => {
    const started = Promise.withResolvers<void>();
    const stopped = Promise.withResolvers<unknown>();
    const hang = defineTool({
      name: 'hang',
      description: 'Waits until cancelled.',
      input: z.object({}),
      run: (_args, context) => {
        started.resolve();
        context.signal.addEventListener('abort', () => stopped.resolve(context.signal.reason));
        return new Promise<string>(() => {});
      },
    });
    const server = createMcpServer({ name: 's', version: '1', tools: [hang] });
    const client = new ClientV1({ name: 't', version: '1' });
    await connectInMemory(server, client);
    void client.callTool({ name: 'hang', arguments: {} }).catch(() => {});
    await started.promise;
    await client.close();
    expect(String(await stopped.promise)).toContain('Connection closed');
  });
});
