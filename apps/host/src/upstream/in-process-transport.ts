import type { JsonRpcId, JsonRpcPayload, Transport, TransportSendOptions } from '@toolshed/mcp-core';

class LinkedTransport implements Transport {
  peer: LinkedTransport | undefined;
  onmessage: ((message: unknown, extra?: unknown) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  #closed = false;

  async start(): Promise<void> {}

  async send(message: JsonRpcPayload, options?: TransportSendOptions): Promise<void> {
    const peer = this.peer;
    if (this.#closed || peer === undefined) throw new Error('The in-process connection is closed');
    const relatedRequestId: JsonRpcId | undefined = options?.relatedRequestId;
    queueMicrotask(() => {
      if (!peer.#closed) peer.onmessage?.(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }
}

/**
 * Two linked transports for a server mounted in the host's process: messages
 * pass as objects (no serialisation), and a server's request made while it
 * handles a call carries that call's id, so the host knows whose human to ask.
 */
export function createInProcessTransportPair(): [client: Transport, server: Transport] {
  const client = new LinkedTransport();
  const server = new LinkedTransport();
  client.peer = server;
  server.peer = client;
  return [client, server];
}
