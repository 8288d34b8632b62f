import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../../server/create-mcp-server.ts';
import { connectTestClient } from '../../testing/connect-test-client.ts';
import { defineTool } from '../../tools/define-tool.ts';
import type { HttpServeOptions } from './http-options.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

/** A server that says which replica answered. */
function replica(name: string) {
  return createMcpServer({
    name: `replica-${name}`,
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Names the replica that answers',
        input: z.object({ pinned: z.boolean().optional() }),
        run: (_args, context) => `${name} (${context.auth?.subject ?? 'nobody'})`,
      }),
    ],
  });
}

describe('relaying a 2026-era request to the replica that is to answer it', () => {
  const tokens = [{ token: 'relay-test-token-0123456789', subject: 'ada' }];
  let holder: HttpServerHandle;
  let front: HttpServerHandle;
  const relayed: string[] = [];

  beforeAll(async () => {
    holder = await serveHttp(replica('holder'), { host: '127.0.0.1', port: 0, auth: { tokens } });
    const relay: HttpServeOptions['relay'] = async (request) => {
      relayed.push(request.method);
      const pinned = (request.params?.arguments as { pinned?: boolean } | undefined)?.pinned === true;
      return pinned ? holder.url : undefined;
    };
    front = await serveHttp(replica('front'), { host: '127.0.0.1', port: 0, auth: { tokens }, relay });
  });

  afterAll(async () => {
    await front.close();
    await holder.close();
  });

  it('answers what the relay leaves here, and passes on what it names, with the caller and its answer as they are', async () => {
    const client = await connectTestClient(
      { url: front.url },
      { client: 'v2-modern', transport: 'http', bearerToken: tokens[0]?.token as string },
    );
    try {
      expect((await client.callTool('whoami', {})).content[0]?.text).toBe('front (ada)');
      expect((await client.callTool('whoami', { pinned: true })).content[0]?.text).toBe('holder (ada)');
      expect(client.recording.specViolations()).toEqual([]);
    } finally {
      await client.close();
    }
    expect(relayed).toContain('tools/call');
  });

  it('never relays a request a second time: the replica it reaches answers it', async () => {
    const looping = await serveHttp(replica('looping'), {
      host: '127.0.0.1',
      port: 0,
      relay: async () => looping.url,
    });
    const client = await connectTestClient({ url: looping.url }, { client: 'v2-modern', transport: 'http' });
    try {
      expect((await client.callTool('whoami', {})).content[0]?.text).toBe('looping (nobody)');
    } finally {
      await client.close();
      await looping.close();
    }
  });

  it('a replica that cannot be reached is a clear JSON-RPC error, not a hang', async () => {
    const stray = await serveHttp(replica('stray'), {
      host: '127.0.0.1',
      port: 0,
      relay: async (request) => (request.method === 'tools/call' ? 'http://127.0.0.1:9/mcp' : undefined),
    });
    const client = await connectTestClient({ url: stray.url }, { client: 'v2-modern', transport: 'http' });
    try {
      await expect(client.callTool('whoami', {})).rejects.toThrow(/could not be reached/);
    } finally {
      await client.close();
      await stray.close();
    }
  });
});
