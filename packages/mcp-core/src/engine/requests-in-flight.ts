import { LocalError } from '../errors/local-error.ts';
import type { JsonRpcId } from '../messages/jsonrpc-message.ts';
import { RequestStop } from './request-stop.ts';

/**
 * The requests a connection is serving, by id: what `notifications/cancelled`
 * stops and what closing the connection aborts. Both eras keep one on every
 * message stream.
 */
export class RequestsInFlight {
  /**
   * By the id itself: a Map tells 1 from "1", as JSON-RPC does. A key made by writing a numeric id into a string
   * would go through V8's number-to-string cache, which keeps each such string alive long after its request.
   */
  readonly #stops = new Map<JsonRpcId, RequestStop>();

  get size(): number {
    return this.#stops.size;
  }

  /** How the request is stopped, or undefined when its id is already in use by one in progress. */
  start(id: JsonRpcId): RequestStop | undefined {
    if (this.#stops.has(id)) return undefined;
    const stop = new RequestStop();
    this.#stops.set(id, stop);
    return stop;
  }

  finish(id: JsonRpcId, stop: RequestStop): void {
    if (this.#stops.get(id) === stop) this.#stops.delete(id);
  }

  /** Stops the request `notifications/cancelled` names; one that has already been answered is not there, which is fine. */
  cancel(params: Record<string, unknown>): void {
    const { requestId } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const stop = this.#stops.get(requestId);
    if (stop === undefined) return;
    this.#stops.delete(requestId);
    const reason = typeof params.reason === 'string' ? params.reason : 'Cancelled by the client';
    stop.abort(new LocalError('request_cancelled', reason));
  }

  abortAll(): void {
    for (const stop of this.#stops.values()) {
      stop.abort(new LocalError('connection_closed', 'Connection closed'));
    }
    this.#stops.clear();
  }
}
