import type { InputRequest } from '../modern/input-round.ts';

/** Where a task stands. The last three are terminal: nothing changes a task after it reaches one. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** One task as a store keeps it. Times are milliseconds since the epoch. */
export interface TaskRecord {
  /** Unguessable: it is all a caller needs to read the task. */
  readonly taskId: string;
  /** Who created it: the authenticated subject, or "" without auth. Only they can read, answer or cancel it. */
  readonly principal: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** From creation; after it the task may be forgotten. */
  readonly ttlMs: number;
  /** The questions the task waits on, by key; only while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>> | undefined;
  /** The call's result, once `completed`. */
  readonly result?: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: TaskError | undefined;
}

/** What the process running a task writes as it moves on: these fields replace the stored ones. */
export interface TaskChange {
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  readonly inputRequests?: Readonly<Record<string, InputRequest>> | undefined;
  readonly result?: Readonly<Record<string, unknown>> | undefined;
  readonly error?: TaskError | undefined;
}

/** What a client asked of a running task, through whichever process it reached. */
export type TaskSignal =
  | { readonly taskId: string; readonly kind: 'cancel' }
  | { readonly taskId: string; readonly kind: 'input'; readonly responses: Readonly<Record<string, unknown>> };

/**
 * Where tasks live. A task runs in the process that created it; any process
 * sharing the store answers `tasks/get` for it, and passes `tasks/update` and
 * `tasks/cancel` on to the running process as signals. A process's memory
 * serves a single server; the host's state store serves replicas, and turns
 * the tasks of a replica that died `failed`.
 */
export interface TaskStore {
  /** Resolves once a `get` anywhere finds the task: only then may the client hear of it. */
  create(task: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** The running process's writes. A task already terminal is left as it is. */
  update(taskId: string, change: TaskChange, at: number): Promise<void>;
  /** Passes a client's cancel or answers to the process running the task. */
  signal(signal: TaskSignal): Promise<void>;
  /** Signals for tasks this process runs, from wherever they were sent. Returns the unsubscribe function. */
  onSignal(listener: (signal: TaskSignal) => void): () => void;
  /** Told the id of each task that changed, for `notifications/tasks`. Returns the unsubscribe function. */
  onChange(listener: (taskId: string) => void): () => void;
}
