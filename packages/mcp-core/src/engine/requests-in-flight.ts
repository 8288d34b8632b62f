import { LocalError } from '../errors/local-error.ts';
import type { JsonRpcId } from '../messages/jsonrpc-message.ts';
import { requestIdKey } from '../messages/request-id-key.ts';
import { RequestStop } from './request-stop.ts';

/**
 * The requests a connection is serving, by id: what `notifications/cancelled`
 * stops and what closing the connection aborts. Both eras keep one on every
 * message stream.
 */
export class RequestsInFlight {
  readonly #stops = new Map<string, RequestStop>();

  get size(): number {
    return this.#stops.size;
  }

  /** How the request is stopped, or undefined when its id is already in use by one in progress. */
  start(id: JsonRpcId): RequestStop | undefined {
    const key = requestIdKey(id);
    if (this.#stops.has(key)) return undefined;
    const stop = new RequestStop();
    this.#stops.set(key, stop);
    return stop;
  }

  finish(id: JsonRpcId, stop: RequestStop): void {
    const key = requestIdKey(id);
    if (this.#stops.get(key) === stop) this.#stops.delete(key);
  }

  /** Stops the request `notifications/cancelled` names; one that has already been answered is not there, which is fine. */
  cancel(params: Record<string, unknown>): void {
    const { requestId } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = requestIdKey(requestId);
    const stop = this.#stops.get(key);
    if (stop === undefined) return;
    this.#stops.delete(key);
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
