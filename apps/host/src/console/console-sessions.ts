// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes, timingSafeEqual } = process.getBuiltinModule('node:crypto');

/** A logged-in browser. */
export interface ConsoleSession {
  readonly id: string;
  readonly user: string;
  /** The token it logged in with: revoking the token ends the session. */
  readonly tokenId: string;
  /** Every form of this session carries it; a POST without it is refused. */
  readonly csrf: string;
  lastSeen: number;
}

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

/** The console's sessions, in memory: a restart logs everyone out, which is the safe way round. */
export class ConsoleSessions {
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  open(user: string, tokenId: string): ConsoleSession {
    const session: ConsoleSession = {
      id: randomBytes(32).toString('base64url'),
      user,
      tokenId,
      csrf: randomBytes(32).toString('base64url'),
      lastSeen: this.#now(),
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session a cookie names, touched; an idle one is ended instead. */
  find(id: string | undefined): ConsoleSession | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    if (this.#now() - session.lastSeen > idleLimitMs) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeen = this.#now();
    return session;
  }

  close(id: string): void {
    this.#sessions.delete(id);
  }

  /** Ends every session opened with a token. */
  closeForToken(tokenId: string): void {
    for (const [id, session] of this.#sessions) if (session.tokenId === tokenId) this.#sessions.delete(id);
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
