import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../server/create-mcp-server.ts';
import { defineTool } from '../tools/define-tool.ts';
import { connectTestClient, testClientKinds } from './connect-test-client.ts';

describe('connectTestClient', () => {
  it.each(testClientKinds)(
    'cancels a call with the %s client: the client stops waiting and the tool is told',
    async (kind) => {
      let running: () => void = () => {};
      const started = new Promise<void>((resolve) => {
        running = resolve;
      });
      let toldToStop: () => void = () => {};
      const stopped = new Promise<void>((resolve) => {
        toldToStop = resolve;
      });
      // A tool that cannot finish: only the cancellation ends it.
      const waits = defineTool({
        name: 'waits',
        description: 'Waits until cancelled.',
        input: z.object({}),
        run: (_args, call) =>
          new Promise<string>((resolve) => {
            call.signal.addEventListener('abort', () => {
              toldToStop();
              resolve('stopped');
            });
            running();
          }),
      });
      const client = await connectTestClient(
        { server: createMcpServer({ name: 'cancel', version: '1.0.0', tools: [waits] }) },
        { client: kind, transport: 'memory' },
      );
      try {
        const controller = new AbortController();
        const call = client.callTool('waits', {}, { signal: controller.signal });
        await started;
        controller.abort();
        await expect(call).rejects.toThrow(/abort/i);
        await stopped;
        expect(client.recording.messages.map((entry) => (entry.message as { method?: string }).method)).toContain(
          'notifications/cancelled',
        );
      } finally {
        await client.close();
      }
    },
  );
});
