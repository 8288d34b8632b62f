import { LocalError } from '../errors/local-error.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcId, JsonRpcMessage, JsonRpcParams, JsonRpcResponse } from '../messages/jsonrpc-message.ts';

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/** Sends one message; `relatedRequestId` tells a streamed transport which stream it belongs on. */
export type SendMessage = (message: JsonRpcMessage, relatedRequestId?: JsonRpcId) => Promise<void>;

/**
 * The requests a server sends to its client (elicitation, sampling, roots):
 * numbered, matched to their responses, cancelled with the call that made
 * them, and all failed when the connection closes.
 */
export class OutgoingRequests {
  readonly #pending = new Map<number, Pending>();
  readonly #send: SendMessage;
  #nextId = 1;
  #closed = false;

  constructor(send: SendMessage) {
    this.#send = send;
  }

  request(
    method: string,
    params: JsonRpcParams,
    signal: AbortSignal,
    relatedRequestId?: JsonRpcId,
  ): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new LocalError('connection_closed', 'Connection closed'));
    signal.throwIfAborted();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#pending.delete(id);
        void this.#send(
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: 'The call was cancelled' },
          },
          relatedRequestId,
        ).catch(() => {});
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => {
        signal.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      this.#pending.set(id, {
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.#send({ jsonrpc: '2.0', id, method, params }, relatedRequestId).catch((error: unknown) => {
        this.#pending
          .get(id)
          ?.reject(new LocalError('transport_closed', `Could not send ${method} to the client`, { cause: error }));
      });
    });
  }

  /** Matches a response from the client to its request; returns false when none was waiting. */
  settle(response: JsonRpcResponse): boolean {
    if (typeof response.id !== 'number') return false;
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return false;
    if ('error' in response && isPlainObject(response.error)) {
      const { code, message } = response.error;
      pending.reject(
        new ProtocolError(typeof code === 'number' ? code : JsonRpcErrorCode.InternalError, String(message)),
      );
    } else if ('result' in response && isPlainObject(response.result)) {
      pending.resolve(response.result);
    } else {
      pending.reject(new ProtocolError(JsonRpcErrorCode.InvalidRequest, 'The client sent a malformed response'));
    }
    return true;
  }

  close(): void {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) {
      pending.reject(new LocalError('connection_closed', 'Connection closed before the client answered'));
    }
  }
}
