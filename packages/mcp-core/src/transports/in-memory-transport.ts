import { LocalError } from '../errors/local-error.ts';
import type { JsonRpcPayload } from '../messages/jsonrpc-message.ts';
import type { MessageExtra, Transport, TransportSendOptions } from './transport.ts';

/** What the receiving side learns besides the message: the request it was sent in the course of, and for whom. */
type Delivery = { message: unknown; extra: MessageExtra | undefined };

function extraOf(options: TransportSendOptions | undefined): MessageExtra | undefined {
  const relatedRequestId = options?.relatedRequestId;
  const authInfo = options?.authInfo;
  if (relatedRequestId === undefined && authInfo === undefined) return undefined;
  return {
    ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
    ...(authInfo === undefined ? {} : { authInfo }),
  };
}

class InMemoryTransport implements Transport {
  peer: InMemoryTransport | undefined;
  onmessage: ((message: unknown, extra?: MessageExtra) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  #started = false;
  #closed = false;
  #queue: Delivery[] = [];

  async start(): Promise<void> {
    this.#started = true;
    const queued = this.#queue;
    this.#queue = [];
    for (const { message, extra } of queued) this.onmessage?.(message, extra);
  }

  async send(message: JsonRpcPayload, options?: TransportSendOptions): Promise<void> {
    const peer = this.peer;
    if (this.#closed || peer === undefined) throw new LocalError('transport_closed', 'In-memory transport is closed');
    peer.#deliver({ message, extra: extraOf(options) });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.peer;
    this.peer = undefined;
    this.onclose?.();
    await peer?.close();
  }

  #deliver(delivery: Delivery): void {
    if (!this.#started) {
      this.#queue.push(delivery);
      return;
    }
    // Deliver on a later tick, as a real channel would, so no caller re-enters itself.
    queueMicrotask(() => {
      if (!this.#closed) this.onmessage?.(delivery.message, delivery.extra);
    });
  }
}

/**
 * Two linked transports: what one sends, the other receives, in order, with
 * no serialisation. For tests, and for the host mounting servers in process.
 * Its shape matches the official SDK's Transport, so an SDK client can use
 * one end. A message sent in the course of a request (`relatedRequestId`)
 * arrives with that id in `onmessage`'s second argument, as a Streamable HTTP
 * client learns it from the request's stream — how the host knows whose call
 * a server's question belongs to. A request sent with `authInfo` arrives
 * with it, as one over authenticated HTTP would: a server mounted in process
 * sees the verified identity of the caller it serves in `call.auth`.
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
