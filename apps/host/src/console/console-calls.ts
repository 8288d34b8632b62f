import { type CallToolResult, createInMemoryTransportPair, uiExtension, viewMimeType } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import { hostVersion } from '../host-version.ts';
import { UpstreamSession } from '../upstream/upstream-session.ts';
import type { ViewDocument } from './view-mounts.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes } = process.getBuiltinModule('node:crypto');

/** One call made from the try-it page. */
export interface ConsoleCall {
  readonly id: string;
  readonly user: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly startedAt: number;
  state: 'running' | 'done' | 'failed';
  result?: CallToolResult | undefined;
  error?: string | undefined;
  finishedAt?: number | undefined;
}

/** Calls kept per user for their result pages. */
const keptPerUser = 20;

/**
 * Runs try-it calls through the host exactly as a client's: each console
 * user has their own in-memory connection, named after them, so the audit
 * log and the approvals page say who called. The connection declares no
 * elicitation, so a tool that needs approval waits on the approvals page
 * like any call from a client that cannot ask. It declares MCP Apps: the
 * console renders views, and their app-only tools are called through it.
 */
export class ConsoleCalls {
  readonly #host: Host;
  readonly #sessions = new Map<string, Promise<UpstreamSession>>();
  readonly #calls = new Map<string, ConsoleCall>();
  readonly #controller = new AbortController();

  constructor(host: Host) {
    this.#host = host;
  }

  #sessionOf(user: string): Promise<UpstreamSession> {
    let session = this.#sessions.get(user);
    if (session === undefined) {
      session = (async () => {
        const [clientSide, serverSide] = createInMemoryTransportPair();
        await this.#host.server.connect(serverSide);
        const connection = new UpstreamSession(clientSide);
        await connection.connect({
          clientInfo: { name: `toolshed-console:${user}`, version: hostVersion },
          capabilities: { extensions: { [uiExtension]: { mimeTypes: [viewMimeType] } } },
          probeTimeLimitMs: 1000,
        });
        return connection;
      })();
      session.catch(() => this.#sessions.delete(user));
      this.#sessions.set(user, session);
    }
    return session;
  }

  /** Starts a call and returns at once; its page shows it running, then its result. */
  start(user: string, tool: string, args: Record<string, unknown>): ConsoleCall {
    const call: ConsoleCall = {
      id: randomBytes(12).toString('base64url'),
      user,
      tool,
      arguments: args,
      startedAt: Date.now(),
      state: 'running',
    };
    this.#calls.set(call.id, call);
    const mine = [...this.#calls.values()].filter((candidate) => candidate.user === user);
    for (const old of mine.slice(0, Math.max(0, mine.length - keptPerUser))) this.#calls.delete(old.id);
    void this.#sessionOf(user)
      .then((session) =>
        session.request('tools/call', { name: tool, arguments: args }, { signal: this.#controller.signal }),
      )
      .then(
        (result) => {
          call.result = result as CallToolResult;
          call.state = 'done';
        },
        (error: unknown) => {
          call.error = error instanceof Error ? error.message : String(error);
          call.state = 'failed';
        },
      )
      .finally(() => {
        call.finishedAt = Date.now();
      });
    return call;
  }

  /** A view's call of a tool, made for `user` as theirs: the same approvals and audit as any call. */
  async callFromView(user: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const session = await this.#sessionOf(user);
    return (await session.request(
      'tools/call',
      { name: tool, arguments: args },
      { signal: this.#controller.signal },
    )) as CallToolResult;
  }

  /** A tool's view read through the host, as `user`; undefined when it is not a view. */
  async readView(user: string, uri: string): Promise<ViewDocument | undefined> {
    const session = await this.#sessionOf(user);
    const read = (await session.request('resources/read', { uri }, { signal: this.#controller.signal })) as {
      contents?: { uri?: unknown; mimeType?: unknown; text?: unknown; _meta?: unknown }[];
    };
    const content = read.contents?.find((entry) => entry.uri === uri) ?? read.contents?.[0];
    if (content === undefined || content.mimeType !== viewMimeType || typeof content.text !== 'string')
      return undefined;
    const ui = isRecord(content._meta) ? content._meta.ui : undefined;
    return { uri, html: content.text, policy: isRecord(ui) && isRecord(ui.csp) ? ui.csp : undefined };
  }

  /** A call of `user`'s; another user's calls are not theirs to see. */
  get(id: string, user: string): ConsoleCall | undefined {
    const call = this.#calls.get(id);
    return call?.user === user ? call : undefined;
  }

  async close(): Promise<void> {
    this.#controller.abort(new Error('The console is closing'));
    const sessions = await Promise.allSettled(this.#sessions.values());
    await Promise.all(sessions.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)));
  }
}
