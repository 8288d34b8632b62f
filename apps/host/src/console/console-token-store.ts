import type { StateStore, TokenRecord } from '@toolshed/state';

const { readFileSync } = process.getBuiltinModule('node:fs');
// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { createHash, randomBytes } = process.getBuiltinModule('node:crypto');

/** One token as it is kept: who it is for and its SHA-256, never the token itself. */
export type StoredToken = TokenRecord;

export interface TokenStore {
  /** The tokens, newest first. */
  list(): Promise<StoredToken[]>;
  /** Makes a token for `user`; the returned secret is the only copy there will ever be. */
  create(user: string, label: string): Promise<{ token: StoredToken; secret: string }>;
  /** Revokes a token; its sessions end at their next request, on every replica. */
  revoke(id: string): Promise<boolean>;
  /** The token a presented secret is, or undefined. */
  verify(secret: string): Promise<StoredToken | undefined>;
}

const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * Per-user tokens for the console, in the host's state store as SHA-256
 * digests: a token is 32 random bytes, so a digest needs no salt or
 * stretching to be useless to whoever reads the store, and a presented token
 * is found by its digest (an index lookup, with nothing to compare in a time
 * an attacker could measure against a secret).
 */
export function createTokenStore(store: () => StateStore): TokenStore {
  return {
    list: () => store().logins.tokens(),
    async create(user, label) {
      const secret = `tsc_${randomBytes(32).toString('base64url')}`;
      const token: StoredToken = {
        id: randomBytes(6).toString('hex'),
        user,
        label,
        sha256: digestOf(secret),
        createdAt: new Date().toISOString(),
      };
      await store().logins.addToken(token);
      return { token, secret };
    },
    revoke: (id) => store().logins.revokeToken(id),
    verify: (secret) => store().logins.findToken(digestOf(secret), Date.now()),
  };
}

/**
 * Brings the tokens of a console-tokens.json file (where tokens were kept
 * before the state store) into the store, once: a token already there is
 * left as it is. Returns how many were brought in.
 */
export async function importTokenFile(path: string, store: StateStore): Promise<number> {
  let tokens: StoredToken[];
  try {
    tokens = (JSON.parse(readFileSync(path, 'utf8')) as { tokens?: StoredToken[] }).tokens ?? [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const known = new Set((await store.logins.tokens()).map((token) => token.id));
  let added = 0;
  for (const token of tokens) {
    if (known.has(token.id) || !/^[0-9a-f]{64}$/.test(token.sha256)) continue;
    await store.logins.addToken(token).then(
      () => added++,
      // A token revoked in the store keeps its row: the file does not bring it back.
      () => {},
    );
  }
  return added;
}
