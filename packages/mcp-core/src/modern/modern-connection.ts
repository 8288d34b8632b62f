import type { AuthInfo } from '../engine/tool-context.ts';
import { LocalError } from '../errors/local-error.ts';
import { classifyMessage } from '../messages/classify-message.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcMessage, JsonRpcRequest } from '../messages/jsonrpc-message.ts';
import { requestIdKey } from '../messages/request-id-key.ts';
import type { Transport } from '../transports/transport.ts';
import { answerModernRequest, type ModernServices } from './answer-modern-request.ts';

/**
 * A message stream (stdio, in memory) speaking the 2026 era. Every request
 * stands alone; the connection only tracks requests in flight so that
 * `notifications/cancelled` can stop one (and end a subscription).
 */
export class ModernConnection {
  readonly #services: ModernServices;
  readonly #transport: Transport;
  readonly #inFlight = new Map<string, AbortController>();
  #closed = false;

  constructor(services: ModernServices, transport: Transport) {
    this.#services = services;
    this.#transport = transport;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  receive(value: unknown, auth: AuthInfo | undefined): void {
    if (Array.isArray(value)) {
      this.#send({
        jsonrpc: '2.0',
        id: null,
        error: { code: JsonRpcErrorCode.InvalidRequest, message: 'Invalid request: batches are not accepted' },
      });
      return;
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'invalid':
        this.#send({ jsonrpc: '2.0', id: classified.id, error: classified.error });
        return;
      case 'response':
        return; // This era sends the client no requests, so there is nothing a response could answer.
      case 'notification':
        if (classified.message.method === 'notifications/cancelled') this.#cancel(classified.message.params ?? {});
        return;
      case 'request':
        void this.#serve(classified.message, auth);
    }
  }

  /** Stops everything in flight: the connection is gone. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inFlight.values()) {
      controller.abort(new LocalError('connection_closed', 'Connection closed'));
    }
    this.#inFlight.clear();
  }

  async #serve(request: JsonRpcRequest, auth: AuthInfo | undefined): Promise<void> {
    const key = requestIdKey(request.id);
    if (this.#inFlight.has(key)) {
      this.#send({
        jsonrpc: '2.0',
        id: request.id,
        error: {
          code: JsonRpcErrorCode.InvalidRequest,
          message: 'Invalid request: this id is already in use by a request in progress',
        },
      });
      return;
    }
    const controller = new AbortController();
    this.#inFlight.set(key, controller);
    try {
      const response = await answerModernRequest(this.#services, request, {
        signal: controller.signal,
        auth,
        notify: (notification) => {
          if (!controller.signal.aborted) this.#send(notification, request);
        },
      });
      if (response !== undefined && !controller.signal.aborted) this.#send(response, request);
    } finally {
      if (this.#inFlight.get(key) === controller) this.#inFlight.delete(key);
    }
  }

  #cancel(params: Record<string, unknown>): void {
    const { requestId } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const controller = this.#inFlight.get(requestIdKey(requestId));
    if (controller === undefined) return;
    this.#inFlight.delete(requestIdKey(requestId));
    const reason = typeof params.reason === 'string' ? params.reason : 'Cancelled by the client';
    controller.abort(new LocalError('request_cancelled', reason));
  }

  #send(message: JsonRpcMessage, related?: JsonRpcRequest): void {
    if (this.#closed) return;
    const sent =
      related === undefined
        ? this.#transport.send(message)
        : this.#transport.send(message, { relatedRequestId: related.id });
    sent.catch((error: unknown) => this.#services.core.report(error, 'send'));
  }
}
