import type { AuthInfo } from '../engine/call-context.ts';
import type { RequestStop } from '../engine/request-stop.ts';
import { RequestsInFlight } from '../engine/requests-in-flight.ts';
import { classifyMessage } from '../messages/classify-message.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../messages/jsonrpc-message.ts';
import type { Transport } from '../transports/transport.ts';
import { answerModernRequest, type ModernExchange, type ModernServices } from './answer-modern-request.ts';

/**
 * A message stream (stdio, in memory) speaking the 2026 era. Every request
 * stands alone; the connection only tracks requests in flight so that
 * `notifications/cancelled` can stop one (and end a subscription).
 */
export class ModernConnection {
  readonly #services: ModernServices;
  readonly #transport: Transport;
  readonly #inFlight = new RequestsInFlight();
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
        if (classified.message.method === 'notifications/cancelled')
          this.#inFlight.cancel(classified.message.params ?? {});
        return;
      case 'request':
        void this.#serve(classified.message, auth);
    }
  }

  /** Stops everything in flight: the connection is gone. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#inFlight.abortAll();
  }

  /** Answers a request; one answered without waiting is sent at once, with no promise made for it. */
  #serve(request: JsonRpcRequest, auth: AuthInfo | undefined): void {
    const stop = this.#inFlight.start(request.id);
    if (stop === undefined) {
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
    const answered = answerModernRequest(
      this.#services,
      request,
      new StreamExchange(stop, auth, this.#transport.networkTransport, (notification) => {
        if (!stop.aborted) this.#send(notification, request);
      }),
    );
    if (answered instanceof Promise) {
      void answered.then((response) => this.#finish(request, stop, response));
    } else {
      this.#finish(request, stop, answered);
    }
  }

  #finish(request: JsonRpcRequest, stop: RequestStop, response: JsonRpcResponse | undefined): void {
    this.#inFlight.finish(request.id, stop);
    if (response !== undefined && !stop.aborted) this.#send(response, request);
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

/**
 * A request's exchange on a message stream. A class, not an object literal with getters: V8 makes such a literal a
 * dictionary-mode object whose accessor pairs live in the old generation, so the getters' closures, and all they close
 * over, survive every young collection until a full one. On a busy connection that was every request's objects.
 */
class StreamExchange implements ModernExchange {
  readonly #stop: RequestStop;
  readonly auth: AuthInfo | undefined;
  readonly networkTransport: Transport['networkTransport'];
  readonly notify: (notification: JsonRpcNotification) => void;

  constructor(
    stop: RequestStop,
    auth: AuthInfo | undefined,
    networkTransport: Transport['networkTransport'],
    notify: (notification: JsonRpcNotification) => void,
  ) {
    this.#stop = stop;
    this.auth = auth;
    this.networkTransport = networkTransport;
    this.notify = notify;
  }

  /** Made only when the handler asks for it: most calls finish without. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  get aborted(): boolean {
    return this.#stop.aborted;
  }
}
