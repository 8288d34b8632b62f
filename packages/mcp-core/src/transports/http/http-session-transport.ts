import type { ServerResponse } from 'node:http';
import type { AuthInfo } from '../../engine/call-context.ts';
import { LocalError } from '../../errors/local-error.ts';
import type { JsonRpcId, JsonRpcMessage, JsonRpcPayload } from '../../messages/jsonrpc-message.ts';
import type { MessageExtra, Transport, TransportSendOptions } from '../transport.ts';
import { EventLog } from './event-log.ts';
import { SseConnection } from './sse-connection.ts';

/**
 * How a POST's requests are answered: one JSON body, an SSE stream, or
 * `either` — a JSON body unless something must stream before the answers are
 * all in, at which point the held response becomes an SSE stream.
 */
export type ResponseMode = 'json' | 'sse' | 'either';

/** A stream's shape once chosen; `undecided` holds the response, headers unsent, until one is. */
type StreamMode = 'json' | 'sse' | 'undecided';

export interface HttpSessionTransportOptions {
  /** Events kept per stream for Last-Event-ID resumption. */
  eventsPerStream: number;
  /** Finished streams whose client went away, kept for resumption; the oldest go first. */
  retainedStreams: number;
  /** The `retry:` advice in priming events, in milliseconds. */
  retryMs: number;
}

interface Stream {
  readonly id: string;
  readonly standalone: boolean;
  /** SSE streams only: what was sent, for resumption. */
  log: EventLog | undefined;
  mode: StreamMode;
  /** Undecided streams: already held through one keep-alive tick, so the next one turns it into SSE. */
  heldThroughTick: boolean;
  /** The live SSE connection. */
  res: SseConnection | undefined;
  /** JSON and undecided modes: the response the answers will be written on. */
  json: ServerResponse | undefined;
  /** Requests of this POST still unanswered. */
  /** By id itself: a Set, like a Map, tells 1 from "1", as JSON-RPC does. */
  readonly pending: Set<JsonRpcId>;
  /** JSON and undecided modes: the answers, written together once all are in. */
  readonly answers: JsonRpcMessage[];
  readonly batch: boolean;
}

/** Where a GET with Last-Event-ID left off. */
export type ResumeOutcome = 'resumed' | 'unknown' | 'busy';

function isResponse(message: JsonRpcMessage): message is JsonRpcMessage & { id: JsonRpcId } {
  return 'id' in message && ('result' in message || 'error' in message);
}

function isRequest(message: JsonRpcMessage): boolean {
  return 'id' in message && 'method' in message;
}

/**
 * One Streamable HTTP session seen as a Transport: each POST that carries
 * requests opens a stream (an SSE response, or one JSON body), the optional
 * GET opens the standalone stream, and every outgoing message goes on
 * exactly one of them — a response on its request's stream, what a request
 * causes (progress, logs, elicitation) on that request's stream, the rest on
 * the standalone stream. SSE events are logged per stream so a client that
 * lost a connection resumes with Last-Event-ID.
 */
export class HttpSessionTransport implements Transport {
  onmessage: ((message: unknown, extra?: MessageExtra) => void) | undefined;
  onclose: (() => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  sessionId: string | undefined;
  readonly networkTransport = 'tcp';
  /** The version initialize settled on; priming events are for 2025-11-25 and later. */
  protocolVersion: string | undefined;
  /** Called when initialize is answered with an error: the session never began and should go. */
  oninitializefailed: (() => void) | undefined;
  readonly #options: HttpSessionTransportOptions;
  readonly #streams = new Map<string, Stream>();
  readonly #byRequest = new Map<JsonRpcId, Stream>();
  readonly #retained: string[] = [];
  #standalone: Stream | undefined;
  #closed = false;
  /** Stream ids need only be unique within the session, which the session id already guards. */
  #nextStreamId = 1;

  constructor(options: HttpSessionTransportOptions, protocolVersion?: string) {
    this.#options = options;
    this.protocolVersion = protocolVersion;
  }

  /** Requests received and not yet answered, across all streams. */
  get pendingRequests(): number {
    return this.#byRequest.size;
  }

  /** Live SSE connections (a session with one is not idle). */
  get openConnections(): number {
    let count = 0;
    for (const stream of this.#streams.values()) if (stream.res !== undefined) count++;
    return count;
  }

  async start(): Promise<void> {}

  /**
   * Takes one POST. Without requests it is answered 202 at once; with
   * requests the response stays open until each has its answer.
   */
  acceptPost(
    res: ServerResponse,
    payload: unknown,
    requestIds: readonly JsonRpcId[],
    mode: ResponseMode,
    auth: AuthInfo | undefined,
    headers: Record<string, string>,
  ): void {
    if (requestIds.length === 0) {
      res.writeHead(202, headers).end();
      this.#deliver(payload, auth);
      return;
    }
    const stream = this.#openStream(false, mode === 'either' ? 'undecided' : mode, Array.isArray(payload));
    for (const id of requestIds) {
      stream.pending.add(id);
      this.#byRequest.set(id, stream);
    }
    if (mode === 'sse') {
      this.#prime(stream, this.#attach(stream, res, headers));
    } else {
      stream.json = res;
      res.once('close', () => {
        if (stream.json === res) stream.json = undefined;
      });
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    }
    this.#deliver(payload, auth);
  }

  /** Opens the standalone stream for server-initiated messages; false when one is already open. */
  acceptStandalone(res: ServerResponse, headers: Record<string, string>): boolean {
    this.#standalone ??= this.#openStream(true, 'sse', false);
    if (this.#standalone.res !== undefined) return false;
    this.#prime(this.#standalone, this.#attach(this.#standalone, res, headers));
    return true;
  }

  /** Replays a stream after `lastEventId` and, when it is still going, carries on on this connection. */
  resume(res: ServerResponse, lastEventId: string, headers: Record<string, string>): ResumeOutcome {
    const dot = lastEventId.lastIndexOf('.');
    const stream = this.#streams.get(lastEventId.slice(0, dot));
    const seq = Number(lastEventId.slice(dot + 1));
    if (dot === -1 || stream === undefined || !Number.isSafeInteger(seq)) return 'unknown';
    const missed = stream.log?.after(seq);
    if (missed === undefined) return 'unknown';
    if (stream.res !== undefined) return 'busy';
    const connection = this.#attach(stream, res, headers);
    for (const event of missed) connection.event(`${stream.id}.${event.seq}`, event.data);
    if (!stream.standalone && stream.pending.size === 0) {
      stream.res = undefined;
      connection.end();
      this.#forget(stream);
    }
    return 'resumed';
  }

  async send(message: JsonRpcPayload, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new LocalError('transport_closed', 'The HTTP session has ended');
    if (Array.isArray(message)) {
      for (const item of message) await this.send(item, options);
      return;
    }
    if (isResponse(message)) {
      this.#noteInitialize(message);
      const stream = message.id === null ? undefined : this.#byRequest.get(message.id);
      if (stream !== undefined) this.#answer(stream, message);
      return; // An answer to a request nobody waits for any more has nowhere to go.
    }
    const related = options?.relatedRequestId;
    const stream = related === undefined ? undefined : this.#byRequest.get(related);
    if (stream?.mode === 'undecided') this.#beginSse(stream);
    if (stream?.mode === 'sse') {
      this.#emit(stream, message);
      return;
    }
    // A JSON-mode stream carries only its answers: what else the request causes goes on the standalone stream.
    this.#sendStandalone(message, stream !== undefined);
  }

  closeStream(relatedRequestId: JsonRpcId): void {
    const stream = this.#byRequest.get(relatedRequestId);
    // Closing asks the client to resume with Last-Event-ID, which only an SSE stream gives it.
    if (stream?.mode === 'undecided') this.#beginSse(stream);
    if (stream?.mode !== 'sse' || stream.res === undefined) return;
    const res = stream.res;
    stream.res = undefined;
    res.end();
  }

  /**
   * Writes a comment on every open SSE connection, so quiet streams survive
   * proxies. A held response sends nothing a proxy would see, so one that
   * has waited through a whole interval becomes an SSE stream and gets its
   * comment too.
   */
  keepAlive(): void {
    for (const stream of this.#streams.values()) {
      if (stream.mode === 'undecided') {
        if (!stream.heldThroughTick) {
          stream.heldThroughTick = true;
          continue;
        }
        this.#beginSse(stream);
      }
      stream.res?.keepAlive();
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of this.#streams.values()) {
      const res = stream.res;
      stream.res = undefined;
      res?.end();
      stream.json?.end();
    }
    this.#streams.clear();
    this.#byRequest.clear();
    this.onclose?.();
  }

  #deliver(payload: unknown, auth: AuthInfo | undefined): void {
    for (const item of Array.isArray(payload) ? payload : [payload]) this.#noteCancellation(item);
    this.onmessage?.(payload, auth === undefined ? undefined : { authInfo: auth });
  }

  /** A cancelled request is never answered (the spec says so), so its stream must not wait for it. */
  #noteCancellation(item: unknown): void {
    const message = item as { method?: unknown; params?: { requestId?: unknown } };
    if (message.method !== 'notifications/cancelled') return;
    const requestId = message.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const stream = this.#byRequest.get(requestId);
    if (stream === undefined) return;
    stream.pending.delete(requestId);
    this.#byRequest.delete(requestId);
    if (stream.pending.size === 0) this.#finish(stream);
  }

  #openStream(standalone: boolean, mode: StreamMode, batch: boolean): Stream {
    const stream: Stream = {
      id: `s${this.#nextStreamId++}`,
      standalone,
      log: mode === 'sse' ? new EventLog(this.#options.eventsPerStream) : undefined,
      mode,
      heldThroughTick: false,
      res: undefined,
      json: undefined,
      pending: new Set(),
      answers: [],
      batch,
    };
    this.#streams.set(stream.id, stream);
    return stream;
  }

  #attach(stream: Stream, res: ServerResponse, headers: Record<string, string>): SseConnection {
    const connection = new SseConnection(res, headers);
    stream.res = connection;
    // The client going away is not a cancellation: the work goes on and is logged for resumption.
    res.once('close', () => {
      if (stream.res === connection) stream.res = undefined;
    });
    return connection;
  }

  /**
   * Turns a held response into an SSE stream: something must reach the
   * client before the answers. Answers already in (a batch's first ones) go
   * first, in the order they came.
   */
  #beginSse(stream: Stream): void {
    stream.mode = 'sse';
    stream.log = new EventLog(this.#options.eventsPerStream);
    const res = stream.json;
    stream.json = undefined;
    // A client already gone leaves the events to the log, as on any SSE stream it left.
    if (res !== undefined && !res.headersSent) this.#prime(stream, this.#attach(stream, res, {}));
    for (const answer of stream.answers.splice(0)) this.#emit(stream, answer);
  }

  #prime(stream: Stream, connection: SseConnection): void {
    if ((this.protocolVersion ?? '') < '2025-11-25') return;
    connection.event(`${stream.id}.0`, '', this.#options.retryMs);
  }

  #emit(stream: Stream, message: JsonRpcMessage): void {
    const event = stream.log?.append(JSON.stringify(message));
    if (event !== undefined) stream.res?.event(`${stream.id}.${event.seq}`, event.data);
  }

  #answer(stream: Stream, message: JsonRpcMessage & { id: JsonRpcId }): void {
    stream.pending.delete(message.id);
    this.#byRequest.delete(message.id);
    if (stream.mode === 'sse') this.#emit(stream, message);
    else stream.answers.push(message);
    if (stream.pending.size === 0) this.#finish(stream);
  }

  /** Ends a stream whose requests are all answered (or cancelled). */
  #finish(stream: Stream): void {
    if (stream.mode !== 'sse') {
      const res = stream.json;
      stream.json = undefined;
      this.#streams.delete(stream.id);
      if (res === undefined || res.headersSent) return;
      if (stream.answers.length === 0) {
        res.writeHead(204).end(); // Every request in it was cancelled: there is nothing to say.
        return;
      }
      const body = JSON.stringify(stream.batch ? stream.answers : stream.answers[0]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const res = stream.res;
    stream.res = undefined;
    if (res !== undefined) {
      res.end();
      this.#forget(stream);
    } else {
      this.#retain(stream);
    }
  }

  #sendStandalone(message: JsonRpcMessage, fromJsonStream: boolean): void {
    const standalone = this.#standalone;
    if (standalone !== undefined && (standalone.res !== undefined || !isRequest(message))) {
      this.#emit(standalone, message);
      return;
    }
    if (isRequest(message)) {
      throw new LocalError(
        'transport_closed',
        fromJsonStream
          ? 'The client asked for a JSON response and has no GET stream open, so the server cannot ask it anything during this call'
          : 'The client has no GET stream open for server requests',
      );
    }
    // A notification with no stream to carry it is dropped, as the spec allows.
  }

  #noteInitialize(message: JsonRpcMessage): void {
    if (this.protocolVersion !== undefined) return;
    if ('error' in message) {
      this.oninitializefailed?.();
      return;
    }
    if (!('result' in message)) return;
    const result = message.result as Record<string, unknown>;
    if (typeof result.protocolVersion === 'string' && typeof result.serverInfo === 'object') {
      this.protocolVersion = result.protocolVersion;
    }
  }

  #forget(stream: Stream): void {
    this.#streams.delete(stream.id);
  }

  #retain(stream: Stream): void {
    this.#retained.push(stream.id);
    while (this.#retained.length > this.#options.retainedStreams) {
      const oldest = this.#retained.shift();
      if (oldest !== undefined) this.#streams.delete(oldest);
    }
  }
}
