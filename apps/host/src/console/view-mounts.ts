import type { CallToolResult } from '@toolshed/mcp-core';
import type { DeclaredViewPolicy } from './view-policy.ts';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes } = process.getBuiltinModule('node:crypto');

/** A tool's view, as read through the host: its document and the policy it declares. */
export interface ViewDocument {
  uri: string;
  html: string;
  policy: DeclaredViewPolicy | undefined;
}

/** One view shown on a console page: a try-it result or an approval card. */
export interface ViewMount {
  /** Names the mount in the console's own routes (the view's tool calls). */
  readonly id: string;
  /** Names the document on the view listener; the view never learns `id`. */
  readonly documentToken: string;
  readonly user: string;
  /** The upstream server whose tool the view belongs to: the only server its calls may reach. */
  readonly server: string;
  /** The exposed name of the tool whose call the view shows. */
  readonly tool: string;
  readonly view: ViewDocument;
  readonly toolInput: Record<string, unknown>;
  /** Absent while the call waits (an approval card). */
  readonly toolResult: CallToolResult | undefined;
  /** The console's origin as the browser reached it: the only page that may frame the view. */
  readonly consoleOrigin: string;
  readonly expiresAt: number;
}

export type ViewMountInput = Omit<ViewMount, 'id' | 'documentToken' | 'expiresAt'>;

/** A page left open this long keeps its views working; a reload mounts them anew. */
const mountLifetimeMs = 60 * 60_000;
/** Mounts kept per user: enough for a page of approval cards and the recent results. */
const keptPerUser = 50;

/**
 * The views the console has mounted, in memory: a mount lives for one open
 * page, so a restart only asks for a reload. Mounts are per user, bounded,
 * and expire; `key` reuses a mount for a page drawn again (the approvals
 * list refreshing itself), so its frame is not replaced while nothing changed.
 */
export class ViewMounts {
  readonly #byId = new Map<string, ViewMount>();
  readonly #byToken = new Map<string, ViewMount>();
  readonly #byKey = new Map<string, ViewMount>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The live mount under `key` for this user and console origin: a page drawn again reuses it. */
  kept(key: string, user: string, consoleOrigin: string): ViewMount | undefined {
    const kept = this.#byKey.get(key);
    return kept !== undefined &&
      kept.user === user &&
      kept.consoleOrigin === consoleOrigin &&
      kept.expiresAt > this.#now()
      ? kept
      : undefined;
  }

  /** A new mount, or the live one under `key`. */
  mount(input: ViewMountInput, key?: string): ViewMount {
    this.#dropExpired();
    const kept = key === undefined ? undefined : this.kept(key, input.user, input.consoleOrigin);
    if (kept !== undefined) return kept;
    const mount: ViewMount = {
      ...input,
      id: randomBytes(16).toString('base64url'),
      documentToken: randomBytes(24).toString('base64url'),
      expiresAt: this.#now() + mountLifetimeMs,
    };
    this.#byId.set(mount.id, mount);
    this.#byToken.set(mount.documentToken, mount);
    if (key !== undefined) this.#byKey.set(key, mount);
    const mine = [...this.#byId.values()].filter((candidate) => candidate.user === input.user);
    for (const old of mine.slice(0, Math.max(0, mine.length - keptPerUser))) this.#drop(old);
    return mount;
  }

  /** The mount `user` may act for; another user's mounts are not theirs. */
  forUser(id: string, user: string): ViewMount | undefined {
    const mount = this.#byId.get(id);
    return mount?.user === user && mount.expiresAt > this.#now() ? mount : undefined;
  }

  /** The mount whose document the view listener serves. */
  byDocumentToken(token: string): ViewMount | undefined {
    const mount = this.#byToken.get(token);
    return mount !== undefined && mount.expiresAt > this.#now() ? mount : undefined;
  }

  #drop(mount: ViewMount): void {
    this.#byId.delete(mount.id);
    this.#byToken.delete(mount.documentToken);
    for (const [key, kept] of this.#byKey) if (kept === mount) this.#byKey.delete(key);
  }

  #dropExpired(): void {
    const now = this.#now();
    for (const mount of this.#byId.values()) if (mount.expiresAt <= now) this.#drop(mount);
  }
}
