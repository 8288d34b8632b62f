import type { ServerCore } from '../engine/server-core.ts';
import { classifyMessage } from '../messages/classify-message.ts';
import type { ModernServices } from '../modern/answer-modern-request.ts';
import { ModernConnection } from '../modern/modern-connection.ts';
import { declaresModernMeta } from '../modern/request-meta.ts';
import { latestProtocolVersion } from '../protocol/protocol-version.ts';
import { LegacySession } from '../session/legacy-session.ts';
import type { MessageExtra, Transport } from '../transports/transport.ts';

type Era = 'undecided' | 'legacy' | 'modern';

/**
 * One message stream (stdio, in memory) whose first message decides its era:
 * `initialize` (or anything without modern `_meta`) starts a 2025 session; a
 * request carrying `_meta` protocol fields makes it a 2026 connection.
 * `server/discover` is answered without deciding, so a client may probe and
 * then fall back to `initialize` on the same stream.
 */
export class DualEraConnection {
  readonly #core: ServerCore;
  readonly #transport: Transport;
  readonly #modern: ModernConnection;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #era: Era = 'undecided';
  #legacy: LegacySession | undefined;

  constructor(core: ServerCore, services: ModernServices, transport: Transport) {
    this.#core = core;
    this.#transport = transport;
    this.#modern = new ModernConnection(services, transport);
    this.#closed = new Promise((resolve) => {
      this.#markClosed = resolve;
    });
    transport.onmessage = (message, extra) => this.#route(message, extra);
    transport.onclose = () => this.#shutDown();
    transport.onerror = (error) => core.report(error, 'transport');
  }

  get protocolVersion(): string | undefined {
    if (this.#era === 'modern') return latestProtocolVersion;
    return this.#legacy?.protocolVersion;
  }

  get closed(): Promise<void> {
    return this.#closed;
  }

  async start(): Promise<void> {
    await this.#transport.start();
  }

  async close(): Promise<void> {
    if (this.#legacy !== undefined) {
      await this.#legacy.close();
      return;
    }
    this.#shutDown();
    await this.#transport.close();
  }

  #shutDown(): void {
    this.#modern.close();
    this.#markClosed();
  }

  #route(message: unknown, extra: MessageExtra | undefined): void {
    if (this.#era === 'modern') {
      this.#modern.receive(message, extra?.authInfo);
      return;
    }
    const classified = Array.isArray(message) ? undefined : classifyMessage(message);
    const request = classified?.kind === 'request' ? classified.message : undefined;
    if (request !== undefined && declaresModernMeta(request.params)) {
      if (request.method !== 'server/discover') this.#era = 'modern';
      this.#modern.receive(message, extra?.authInfo);
      return;
    }
    this.#era = 'legacy';
    // The session takes the transport over from here; it sees the first message as if it had been there all along.
    const session = new LegacySession(this.#core, this.#transport);
    this.#legacy = session;
    void session.closed.then(() => this.#shutDown());
    this.#transport.onmessage?.(message, extra);
  }
}
