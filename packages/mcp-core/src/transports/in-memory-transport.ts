import { LocalError } from '../errors/local-error.ts';
import type { JsonRpcPayload } from '../messages/jsonrpc-message.ts';
import type { Transport } from './transport.ts';

class InMemoryTransport implements Transport {
  peer: InMemoryTransport | undefined;
  onmessage: ((message: unknown) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  #started = false;
  #closed = false;
  #queue: unknown[] = [];

  async start(): Promise<void> {
    this.#started = true;
    const queued = this.#queue;
    this.#queue = [];
    for (const message of queued) this.onmessage?.(message);
  }

  async send(message: JsonRpcPayload): Promise<void> {
    const peer = this.peer;
    if (this.#closed || peer === undefined) throw new LocalError('transport_closed', 'In-memory transport is closed');
    peer.#deliver(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }

  #deliver(message: unknown): void {
    if (!this.#started) {
      this.#queue.push(message);
      return;
    }
    // Deliver on a later tick, as a real channel would, so no caller re-enters itself.
    queueMicrotask(() => {
      if (!this.#closed) this.onmessage?.(message);
    });
  }
}

/**
 * Two linked transports: what one sends, the other receives, in order, with
 * no serialisation. For tests, and for the host mounting servers in process.
 * Its shape matches the official SDK's Transport, so an SDK client can use
 * one end.
 *
 * @example
 * const [clientSide, serverSide] = createInMemoryTransportPair();
 * await server.connect(serverSide);
 * await sdkClient.connect(clientSide);
 */
export function createInMemoryTransportPair(): [Transport, Transport] {
  const first = new InMemoryTransport();
  const second = new InMemoryTransport();
  first.peer = second;
  second.peer = first;
  return [first, second];
}
