import type {
  ApprovalDecision,
  ApprovalRecord,
  ApprovalRequestRecord,
  ApprovalStore,
  DecisionRefusal,
} from '../state-store.ts';
import type { SqlExecutor } from './sql-executor.ts';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { randomBytes } = process.getBuiltinModule('node:crypto');

type ApprovalRow = {
  id: string;
  replica: string;
  retry_key: string | null;
  caller: string;
  server: string;
  tool: string;
  upstream_tool: string;
  arguments: string;
  arguments_sha256: string;
  reason: string;
  preview: string | null;
  requested_at: number;
  expires_at: number;
  decision: string | null;
  decided_by: string | null;
  used_at: number | null;
};

function recordOf(row: ApprovalRow): ApprovalRecord {
  return {
    id: row.id,
    replica: row.replica,
    caller: row.caller,
    server: row.server,
    tool: row.tool,
    upstreamTool: row.upstream_tool,
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    argumentsDigest: row.arguments_sha256,
    reason: row.reason,
    ...(row.preview === null ? {} : { preview: row.preview }),
    ...(row.retry_key === null ? {} : { retryKey: row.retry_key }),
    requestedAt: Number(row.requested_at),
    expiresAt: Number(row.expires_at),
    ...(row.decision === null ? {} : { decision: row.decision as ApprovalDecision }),
    ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
    ...(row.used_at === null ? {} : { usedAt: Number(row.used_at) }),
  };
}

/** The channel a decision is announced on: PostgreSQL's NOTIFY carries the row id only. */
export const approvalChannel = 'toolshed_approval';

/**
 * Approvals as rows. Every change of a request's decision is one
 * conditional update (`… WHERE decision IS NULL … RETURNING`), so that of
 * two deciders only one changes the row; `announce` then tells every
 * replica, which reads the row again.
 */
export function createApprovalRows(
  sql: SqlExecutor,
  replica: string,
  announce: (id: string) => Promise<void>,
  subscribe: (listener: (id: string) => void) => () => void,
): ApprovalStore {
  const get = async (id: string) =>
    (await sql.query<ApprovalRow>('SELECT * FROM toolshed_approvals WHERE id = $1', [id])).map(recordOf)[0];

  return {
    async create(request: ApprovalRequestRecord, now: number): Promise<ApprovalRecord> {
      const record: ApprovalRecord = {
        ...request,
        id: randomBytes(16).toString('base64url'),
        replica,
        requestedAt: now,
      };
      await sql.query(
        `INSERT INTO toolshed_approvals (id, replica, retry_key, caller, server, tool, upstream_tool, arguments,
           arguments_sha256, reason, preview, requested_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          record.id,
          replica,
          record.retryKey ?? null,
          record.caller,
          record.server,
          record.tool,
          record.upstreamTool,
          JSON.stringify(record.arguments),
          record.argumentsDigest,
          record.reason,
          record.preview ?? null,
          record.requestedAt,
          record.expiresAt,
        ],
      );
      await announce(record.id);
      return record;
    },
    get,
    async pending(now) {
      const rows = await sql.query<ApprovalRow>(
        'SELECT * FROM toolshed_approvals WHERE decision IS NULL AND expires_at > $1 ORDER BY requested_at, id',
        [now],
      );
      return rows.map(recordOf);
    },
    async decide(id, decision, now) {
      const taken = await sql.query(
        `UPDATE toolshed_approvals SET decision = $2, decided_by = $3, decided_at = $4
         WHERE id = $1 AND decision IS NULL AND tool = $5 AND arguments_sha256 = $6 AND expires_at > $4
         RETURNING id`,
        [id, decision.approve ? 'approved' : 'denied', decision.by, now, decision.tool, decision.argumentsDigest],
      );
      if (taken.length === 1) {
        await announce(id);
        return { ok: true };
      }
      const row = await get(id);
      let refusal: DecisionRefusal;
      if (row === undefined || row.decision === 'cancelled' || row.decision === 'interrupted') refusal = 'unknown';
      else if (row.decision === 'expired' || (row.decision === undefined && row.expiresAt <= now)) refusal = 'expired';
      else if (row.decision !== undefined) refusal = 'already_decided';
      else refusal = 'mismatch';
      return { ok: false, refusal };
    },
    async settle(id, decision, now) {
      const changed = await sql.query(
        `UPDATE toolshed_approvals SET decision = $2, decided_at = $3 WHERE id = $1 AND decision IS NULL RETURNING id`,
        [id, decision, now],
      );
      if (changed.length === 1) await announce(id);
      return (await get(id))?.decision;
    },
    async findForRetry(retryKey, now) {
      const rows = await sql.query<ApprovalRow>(
        `SELECT * FROM toolshed_approvals
         WHERE retry_key = $1 AND used_at IS NULL AND expires_at > $2 AND (decision IS NULL OR decision = 'approved')
         ORDER BY requested_at DESC LIMIT 1`,
        [retryKey, now],
      );
      return rows.map(recordOf)[0];
    },
    async use(id, now) {
      const used = await sql.query(
        `UPDATE toolshed_approvals SET used_at = $2 WHERE id = $1 AND decision = 'approved' AND used_at IS NULL
         RETURNING id`,
        [id, now],
      );
      return used.length === 1;
    },
    onChange: subscribe,
  };
}
