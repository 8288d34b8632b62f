import type { StateStore } from '@toolshed/state';
import { type AuditEntry, redactSecrets } from './audit-log.ts';

/** What is known of a call when it starts. */
export type CallStart = Pick<
  AuditEntry,
  'id' | 'time' | 'caller' | 'server' | 'tool' | 'upstream_tool' | 'arguments_sha256' | 'approval' | 'trace_id'
>;

/**
 * Where each call is recorded: a row in the state store written before
 * anything runs and completed before the answer is sent, then a line for
 * the JSONL sink and the host's listeners.
 */
export interface CallRecorder {
  /** Rejects when the store cannot take the row: the call must then not run. */
  begin(start: CallStart): Promise<void>;
  complete(entry: AuditEntry): Promise<void>;
}

/** Endings that could not be recorded (the store went away mid-call) are retried this often, and this many kept. */
const retryEveryMs = 1000;
const maxUnrecorded = 10_000;

/**
 * The store's row for each call, and the JSONL sink and listeners after it.
 * A call that ran while the store went away still answers (its effect
 * happened and the caller must hear of it); its ending is kept and written
 * once the store answers again, so its row does not stay `started` while
 * this process lives (and if the process dies first, the row ends
 * `interrupted`).
 */
export function createCallRecorder(options: {
  store: () => StateStore;
  /** Whether the audit record is on (`toolshed.audit.enabled`). */
  enabled: () => boolean;
  /** The JSONL sink and the listeners, after the row. */
  sink: (entry: AuditEntry) => void;
}): CallRecorder {
  const unrecorded = new Map<string, AuditEntry>();
  let retryScheduled = false;
  const scheduleRetry = () => {
    if (retryScheduled) return;
    retryScheduled = true;
    setTimeout(retry, retryEveryMs).unref();
  };
  const write = (entry: AuditEntry) =>
    options.store().audit.complete(entry.id, {
      approval: entry.approval,
      outcome: entry.outcome,
      duration_ms: entry.duration_ms,
      error: entry.error === undefined ? undefined : redactSecrets(entry.error),
    });
  const retry = () => {
    retryScheduled = false;
    void Promise.all(
      [...unrecorded.values()].map((entry) =>
        write(entry).then(
          () => unrecorded.delete(entry.id),
          () => {},
        ),
      ),
    ).then(() => {
      if (unrecorded.size > 0) scheduleRetry();
    });
  };
  return {
    async begin(start) {
      if (!options.enabled()) return;
      await options.store().audit.begin(start);
    },
    async complete(entry) {
      try {
        if (options.enabled()) await write(entry);
      } catch (error) {
        if (unrecorded.size < maxUnrecorded) unrecorded.set(entry.id, entry);
        scheduleRetry();
        throw error;
      } finally {
        options.sink(entry);
      }
    },
  };
}
