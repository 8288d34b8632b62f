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
  readonly #controllers = new Map<string, RequestStop>();

  get size(): number {
    return this.#controllers.size;
  }

  /** How the request is stopped, or undefined when its id is already in use by one in progress. */
  start(id: JsonRpcId): RequestStop | undefined {
    const key = requestIdKey(id);
    if (this.#controllers.has(key)) return undefined;
    const controller = new RequestStop();
    this.#controllers.set(key, controller);
    return controller;
  }

  finish(id: JsonRpcId, controller: RequestStop): void {
    const key = requestIdKey(id);
    if (this.#controllers.get(key) === controller) this.#controllers.delete(key);
  }

  /** Stops the request `notifications/cancelled` names; one that has already been answered is not there, which is fine. */
  cancel(params: Record<string, unknown>): void {
    const { requestId } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = requestIdKey(requestId);
    const controller = this.#controllers.get(key);
    if (controller === undefined) return;
    this.#controllers.delete(key);
    const reason = typeof params.reason === 'string' ? params.reason : 'Cancelled by the client';
    controller.abort(new LocalError('request_cancelled', reason));
  }

  abortAll(): void {
    for (const controller of this.#controllers.values()) {
      controller.abort(new LocalError('connection_closed', 'Connection closed'));
    }
    this.#controllers.clear();
  }
}
