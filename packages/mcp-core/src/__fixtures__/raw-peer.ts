import type { McpServer } from '../server/create-mcp-server.ts';
import { type ClientTransportLike, type MessageRecording, recordMessages } from '../testing/message-recorder.ts';
import { createInMemoryTransportPair } from '../transports/in-memory-transport.ts';

export interface RawPeer {
  /** Sends a frame and waits until the server has had time to answer it. */
  send(frame: unknown): Promise<void>;
  /** Sends a request and resolves with the server's response to it. */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  initialize(protocolVersion?: string, capabilities?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Every message the server sent, in order. */
  readonly received: unknown[];
  readonly recording: MessageRecording;
  settle(): Promise<void>;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A hand-driven client in memory, for frames no well-behaved client would send. */
export async function connectRawPeer(server: McpServer): Promise<RawPeer> {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  // Frames here are deliberately anything at all, not only valid messages.
  const recording = recordMessages(clientSide as ClientTransportLike);
  const received: unknown[] = [];
  const waiters = new Map<unknown, (message: Record<string, unknown>) => void>();
  recording.transport.onmessage = ((message: Record<string, unknown>) => {
    received.push(message);
    const waiter = waiters.get(message.id);
    if (waiter !== undefined && !('method' in message)) {
      waiters.delete(message.id);
      waiter(message);
    }
  }) as never;
  await recording.transport.start();
  let nextId = 1000;
  const settle = async (): Promise<void> => {
    for (let index = 0; index < 5; index++) await tick();
  };
  const peer: RawPeer = {
    received,
    recording,
    settle,
    async send(frame) {
      await recording.transport.send(frame);
      await settle();
    },
    request(method, params) {
      const id = nextId++;
      const answered = new Promise<Record<string, unknown>>((resolve) => waiters.set(id, resolve));
      void recording.transport.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      return answered;
    },
    async initialize(protocolVersion = '2025-11-25', capabilities = {}) {
      const response = await peer.request('initialize', {
        protocolVersion,
        capabilities,
        clientInfo: { name: 'raw-peer', version: '0.0.0' },
      });
      await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return response;
    },
  };
  return peer;
}
