import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { createHash, randomBytes, timingSafeEqual } = process.getBuiltinModule('node:crypto');

/** One token as it is kept: who it is for and its SHA-256, never the token itself. */
export interface StoredToken {
  id: string;
  user: string;
  label: string;
  sha256: string;
  createdAt: string;
  lastUsedAt?: string | undefined;
}

export interface TokenStore {
  /** The tokens, newest first. */
  list(): StoredToken[];
  /** Makes a token for `user`; the returned secret is the only copy there will ever be. */
  create(user: string, label: string): { token: StoredToken; secret: string };
  revoke(id: string): boolean;
  /** The token a presented secret is, or undefined. */
  verify(secret: string): StoredToken | undefined;
  /** Tells `listener` when a token is revoked (its sessions end). */
  onRevoke(listener: (token: StoredToken) => void): () => void;
}

const digestOf = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/**
 * Per-user tokens for the console, kept in a JSON file readable by its
 * owner only, as SHA-256 digests: a token is 32 random bytes, so a digest
 * needs no salt or stretching to be useless to whoever reads the file.
 * Presented tokens are compared in constant time against every digest.
 * Without a path the tokens live in memory only.
 */
export function createTokenStore(path: string | undefined): TokenStore {
  let tokens: StoredToken[] = [];
  if (path !== undefined) {
    try {
      tokens = (JSON.parse(readFileSync(path, 'utf8')) as { tokens?: StoredToken[] }).tokens ?? [];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const listeners = new Set<(token: StoredToken) => void>();
  const save = () => {
    if (path === undefined) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ tokens }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  };
  return {
    list: () => [...tokens].reverse(),
    create(user, label) {
      const secret = `tsc_${randomBytes(32).toString('base64url')}`;
      const token: StoredToken = {
        id: randomBytes(6).toString('hex'),
        user,
        label,
        sha256: digestOf(secret).toString('hex'),
        createdAt: new Date().toISOString(),
      };
      tokens.push(token);
      save();
      return { token, secret };
    },
    revoke(id) {
      const token = tokens.find((candidate) => candidate.id === id);
      if (token === undefined) return false;
      tokens = tokens.filter((candidate) => candidate !== token);
      save();
      for (const listener of listeners) listener(token);
      return true;
    },
    verify(secret) {
      const presented = digestOf(secret);
      let found: StoredToken | undefined;
      for (const token of tokens) {
        if (timingSafeEqual(presented, Buffer.from(token.sha256, 'hex'))) found = token;
      }
      if (found !== undefined) {
        const now = new Date();
        // Written at most once a minute: a token used on every request must not mean a write on every request.
        const stale = found.lastUsedAt === undefined || now.getTime() - Date.parse(found.lastUsedAt) > 60_000;
        found.lastUsedAt = now.toISOString();
        if (stale) save();
      }
      return found;
    },
    onRevoke(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
