import type { LoginStore, SessionRecord, TokenRecord } from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';

const { createHash } = process.getBuiltinModule('node:crypto');

type TokenRow = {
  id: string;
  user_name: string;
  label: string;
  sha256: string;
  created_at: number;
  last_used_at: number | null;
};

/** A token or session used on every request is written at most this often. */
const touchEveryMs = 60_000;

function tokenOf(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    user: row.user_name,
    label: row.label,
    sha256: row.sha256,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    ...(row.last_used_at === null ? {} : { lastUsedAt: new Date(Number(row.last_used_at)).toISOString() }),
  };
}

/** A session id is a bearer secret: the store keeps its digest, so reading the store logs nobody in. */
const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * Console tokens and sessions as rows. A session is found through its
 * token, so revoking the token ends it on every replica at its next request.
 */
export function createLoginRows(sql: SqlExecutor): LoginStore {
  return {
    async tokens() {
      const rows = await sql.query<TokenRow>(
        'SELECT * FROM toolshed_console_tokens WHERE revoked_at IS NULL ORDER BY created_at DESC, id',
      );
      return rows.map(tokenOf);
    },
    async addToken(token) {
      await sql.query(
        `INSERT INTO toolshed_console_tokens (id, user_name, label, sha256, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [token.id, token.user, token.label, token.sha256, Date.parse(token.createdAt)],
      );
    },
    async revokeToken(id) {
      const revoked = await sql.query(
        'UPDATE toolshed_console_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
        [id, Date.now()],
      );
      if (revoked.length === 0) return false;
      await sql.query('DELETE FROM toolshed_console_sessions WHERE token_id = $1', [id]);
      return true;
    },
    async findToken(sha256, now) {
      const row = (
        await sql.query<TokenRow>('SELECT * FROM toolshed_console_tokens WHERE sha256 = $1 AND revoked_at IS NULL', [
          sha256,
        ])
      )[0];
      if (row === undefined) return undefined;
      if (row.last_used_at === null || now - Number(row.last_used_at) > touchEveryMs) {
        await sql.query('UPDATE toolshed_console_tokens SET last_used_at = $2 WHERE id = $1', [row.id, now]);
        row.last_used_at = now;
      }
      return tokenOf(row);
    },
    async openSession(session: SessionRecord, now) {
      await sql.query(
        `INSERT INTO toolshed_console_sessions (id_sha256, user_name, token_id, csrf, created_at, last_seen)
         VALUES ($1, $2, $3, $4, $5, $5)`,
        [digestOf(session.id), session.user, session.tokenId, session.csrf, now],
      );
    },
    async findSession(id, idleLimitMs, now) {
      const key = digestOf(id);
      const row = (
        await sql.query<{ user_name: string; token_id: string; csrf: string; last_seen: number }>(
          `SELECT session.user_name, session.token_id, session.csrf, session.last_seen
           FROM toolshed_console_sessions AS session
           JOIN toolshed_console_tokens AS token ON token.id = session.token_id AND token.revoked_at IS NULL
           WHERE session.id_sha256 = $1`,
          [key],
        )
      )[0];
      if (row === undefined) return undefined;
      if (now - Number(row.last_seen) > idleLimitMs) {
        await sql.query('DELETE FROM toolshed_console_sessions WHERE id_sha256 = $1', [key]);
        return undefined;
      }
      if (now - Number(row.last_seen) > touchEveryMs) {
        await sql.query('UPDATE toolshed_console_sessions SET last_seen = $2 WHERE id_sha256 = $1', [key, now]);
      }
      return { id, user: row.user_name, tokenId: row.token_id, csrf: row.csrf };
    },
    async closeSession(id) {
      await sql.query('DELETE FROM toolshed_console_sessions WHERE id_sha256 = $1', [digestOf(id)]);
    },
  };
}
