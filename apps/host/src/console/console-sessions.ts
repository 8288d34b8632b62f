import type { SessionRecord, StateStore } from '@toolshed/state';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes, timingSafeEqual } = process.getBuiltinModule('node:crypto');

/** A logged-in browser; every form of it carries its `csrf`, and a POST without it is refused. */
export type ConsoleSession = SessionRecord;

export const sessionCookie = 'toolshed_console';
export const loginCookie = 'toolshed_console_login';

/** A session unused for this long ends. */
const idleLimitMs = 8 * 60 * 60_000;

/** Whether two secrets are the same, in time that does not depend on where they differ. */
export function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The console's sessions, in the host's state store: a browser logged in on
 * one replica is logged in on all, and revoking its token logs it out
 * everywhere at its next request. The store keeps a session id's digest only.
 */
export class ConsoleSessions {
  readonly #store: () => StateStore;
  readonly #now: () => number;

  constructor(store: () => StateStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  async open(user: string, tokenId: string): Promise<ConsoleSession> {
    const session: ConsoleSession = {
      id: randomBytes(32).toString('base64url'),
      user,
      tokenId,
      csrf: randomBytes(32).toString('base64url'),
    };
    await this.#store().logins.openSession(session, this.#now());
    return session;
  }

  /** The live session a cookie names, touched; an idle one, or one whose token was revoked, is gone. */
  find(id: string | undefined): Promise<ConsoleSession | undefined> {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return Promise.resolve(undefined);
    return this.#store().logins.findSession(id, idleLimitMs, this.#now());
  }

  close(id: string): Promise<void> {
    return this.#store().logins.closeSession(id);
  }
}

/** The cookies of a request, by name. */
export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    cookies.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  return cookies;
}

/** A cookie only this origin's own pages send: HttpOnly, SameSite=Strict, the whole console. */
export function cookieHeader(name: string, value: string, maxAgeSeconds?: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`}`;
}
