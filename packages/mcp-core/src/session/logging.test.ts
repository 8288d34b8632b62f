import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createFixtureServer } from '../__fixtures__/fixture-tools.ts';
import { connectRawPeer } from '../__fixtures__/raw-peer.ts';
import { connectInMemory } from '../testing/connect-in-memory.ts';

describe('logging', () => {
  it('filters by the level the client set, and redacts secrets', async () => {
    const client = new ClientV1({ name: 't', version: '1' });
    const messages: { level: string; data: unknown; logger?: string | undefined }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    const { recording } = await connectInMemory(createFixtureServer(), client);
    await client.callTool({ name: 'log', arguments: {} });
    expect(messages.map((message) => message.level)).toEqual(['info', 'warning', 'error']);
    expect(messages[0]).toEqual({
      level: 'info',
      logger: 'fixture',
      data: { message: 'at info', apiKey: '[redacted]', header: 'Bearer [redacted]' },
    });
    messages.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log', arguments: {} });
    expect(messages.map((message) => message.level)).toEqual(['warning', 'error']);
    messages.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'log', arguments: {} });
    expect(messages.map((message) => message.level)).toEqual(['debug', 'info', 'warning', 'error']);
    expect(recording.specViolations()).toEqual([]);
  });

  it.each([['verbose'], [3], [null]])('refuses logging/setLevel %j with -32602', async (level) => {
    const peer = await connectRawPeer(createFixtureServer());
    await peer.initialize();
    const response = await peer.request('logging/setLevel', { level });
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringContaining('debug, info, notice') });
  });
});
