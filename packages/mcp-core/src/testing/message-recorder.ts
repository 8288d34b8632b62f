import { createSpecValidator, specSchemaVersions } from './spec-schema-validator.ts';

/** The transport shape the official SDK clients use. */
export interface ClientTransportLike {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

export interface RecordedMessage {
  direction: 'to-server' | 'to-client';
  message: unknown;
}

export interface MessageRecording<Wrapped extends ClientTransportLike = ClientTransportLike> {
  /** Hand this to the client's connect() in place of the wrapped transport; it has the same type. */
  readonly transport: Wrapped;
  readonly messages: readonly RecordedMessage[];
  /** The version the server answered initialize with, or the stateless version the client's requests name. */
  readonly protocolVersion: string | undefined;
  /**
   * Every way in which what the server sent breaks the official schema of
   * the negotiated revision; empty when all of it is valid.
   */
  specViolations(): string[];
  /**
   * Sends a request of the test's own on the client's transport and resolves
   * its response, which the client never sees: for requests the SDK has no
   * call for. Its id must not be one the SDK uses (a string such as "side-1").
   */
  exchange(request: { id: string; method: string; params?: Record<string, unknown> }): Promise<unknown>;
}

type Handler = (message: unknown, extra?: unknown) => void;

/**
 * Wraps a client-side transport to keep every message in both directions, so
 * a test can check all that the server emitted against the official schema.
 *
 * @example
 * const recording = recordMessages(new StdioClientTransport({ command: 'node', args: ['server.js'] }));
 * await client.connect(recording.transport);
 * expect(recording.specViolations()).toEqual([]);
 */
export function recordMessages<Wrapped extends ClientTransportLike>(inner: Wrapped): MessageRecording<Wrapped> {
  const messages: RecordedMessage[] = [];
  const target = inner as unknown as { onmessage?: Handler | undefined };
  const awaited = new Map<unknown, (response: unknown) => void>();
  const transport: ClientTransportLike = {
    start: () => inner.start(),
    send(message, options) {
      messages.push({ direction: 'to-server', message: structuredClone(message) });
      return inner.send(message, options);
    },
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion(version) {
      inner.setProtocolVersion?.(version);
    },
    get onclose() {
      return inner.onclose;
    },
    set onclose(handler) {
      inner.onclose = handler;
    },
    get onerror() {
      return inner.onerror;
    },
    set onerror(handler) {
      inner.onerror = handler;
    },
    get onmessage() {
      return target.onmessage as ClientTransportLike['onmessage'];
    },
    set onmessage(handler) {
      const next = handler as Handler | undefined;
      target.onmessage =
        next &&
        ((message, extra) => {
          messages.push({ direction: 'to-client', message: structuredClone(message) });
          const id = (message as { id?: unknown; method?: unknown }).id;
          const answer = id === undefined || 'method' in (message as object) ? undefined : awaited.get(id);
          if (answer !== undefined) {
            awaited.delete(id);
            answer(message);
            return;
          }
          next(message, extra);
        });
    },
  };

  const recording: MessageRecording<Wrapped> = {
    transport: transport as Wrapped,
    messages,
    exchange(request) {
      return new Promise((resolve, reject) => {
        awaited.set(request.id, resolve);
        transport.send({ jsonrpc: '2.0', ...request }).catch((error: unknown) => {
          awaited.delete(request.id);
          reject(error);
        });
      });
    },
    get protocolVersion() {
      let stateless: string | undefined;
      for (const { direction, message } of messages) {
        const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
        if (direction === 'to-client' && typeof version === 'string') return version;
        const meta = (message as { method?: unknown; params?: { _meta?: Record<string, unknown> } }).params?._meta;
        const named = meta?.['io.modelcontextprotocol/protocolVersion'];
        if (direction === 'to-server' && typeof named === 'string' && named >= '2026') stateless ??= named;
      }
      return stateless;
    },
    specViolations() {
      const version = recording.protocolVersion ?? '2025-11-25';
      if (!specSchemaVersions.includes(version)) {
        throw new Error(`No official schema ships for ${version}; cannot validate`);
      }
      const validator = createSpecValidator(version);
      const methods = new Map<unknown, string>();
      const violations: string[] = [];
      for (const { direction, message } of messages) {
        for (const item of Array.isArray(message) ? message : [message]) {
          const { id, method } = (typeof item === 'object' && item !== null ? item : {}) as {
            id?: unknown;
            method?: unknown;
          };
          if (direction === 'to-server') {
            if (typeof method === 'string' && id !== undefined) methods.set(id, method);
            continue;
          }
          const answering = typeof method === 'string' ? undefined : methods.get(id);
          for (const problem of validator.validateServerMessage(item, answering)) {
            violations.push(`${problem} in ${JSON.stringify(item).slice(0, 300)}`);
          }
        }
      }
      return violations;
    },
  };
  return recording;
}
