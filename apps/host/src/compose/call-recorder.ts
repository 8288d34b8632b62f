import type { StateStore } from '@toolshed/state';
import { type AuditEntry, redactSecrets } from './audit-log.ts';

/** What is known of a call when it starts. */
export type CallStart = Pick<
  AuditEntry,
  'id' | 'time' | 'caller' | 'server' | 'tool' | 'upstream_tool' | 'arguments_sha256' | 'approval'
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

export function createCallRecorder(options: {
  store: () => StateStore;
  /** Whether the audit record is on (`toolshed.audit.enabled`). */
  enabled: () => boolean;
  /** The JSONL sink and the listeners, after the row. */
  sink: (entry: AuditEntry) => void;
}): CallRecorder {
  return {
    async begin(start) {
      if (!options.enabled()) return;
      await options.store().audit.begin({ ...start, id: start.id });
    },
    async complete(entry) {
      try {
        if (options.enabled()) {
          await options.store().audit.complete(entry.id, {
            approval: entry.approval,
            outcome: entry.outcome,
            duration_ms: entry.duration_ms,
            error: entry.error === undefined ? undefined : redactSecrets(entry.error),
          });
        }
      } finally {
        options.sink(entry);
      }
    },
  };
}
