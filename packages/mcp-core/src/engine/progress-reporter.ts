import type { JsonRpcNotification } from '../messages/jsonrpc-message.ts';

export interface ProgressReporter {
  report(done: number, total?: number, message?: string): void;
  /** Called when the response is sent: progress after it would confuse the client. */
  finish(): void;
}

const noProgress: ProgressReporter = { report() {}, finish() {} };

/**
 * Sends `notifications/progress` for a request that carried a progressToken.
 * The spec requires progress to increase; a value that does not is dropped
 * rather than sent, and so is anything after the response.
 */
export function createProgressReporter(
  token: string | number | undefined,
  send: (notification: JsonRpcNotification) => void,
): ProgressReporter {
  if (token === undefined) return noProgress;
  let last = Number.NEGATIVE_INFINITY;
  let finished = false;
  return {
    report(done, total, message) {
      if (finished || !Number.isFinite(done) || done <= last) return;
      last = done;
      const params: Record<string, unknown> = { progressToken: token, progress: done };
      if (total !== undefined && Number.isFinite(total)) params.total = total;
      if (message !== undefined) params.message = message;
      send({ jsonrpc: '2.0', method: 'notifications/progress', params });
    },
    finish() {
      finished = true;
    },
  };
}
