import { tasksExtension } from '@toolshed/mcp-core';
import { UpstreamInputError } from './input-required-rounds.ts';
import { UpstreamRpcError } from './upstream-errors.ts';
import type { ProgressUpdate, ServerRequestHandler } from './upstream-session.ts';

/** What following one upstream task needs from the connection it came on. */
export interface UpstreamTaskChannel {
  /** One request to the upstream in the modern era, with the request envelope; resolves its raw result. */
  request(method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', params: Record<string, unknown>): Promise<unknown>;
  /** Answers the task's questions, as the caller's own: forms, completions, roots. */
  answer: ServerRequestHandler | undefined;
  signal: AbortSignal | undefined;
  onProgress: ((update: ProgressUpdate) => void) | undefined;
}

/** Declares the tasks extension in a modern request's capabilities: the host follows every task an upstream makes. */
export function withTasksDeclared(capabilities: Record<string, unknown>): Record<string, unknown> {
  const extensions = (capabilities.extensions as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...extensions, [tasksExtension]: {} } };
}

/** The host never polls faster than this, whatever an upstream suggests, nor slower than the upper bound. */
const fastestPollMs = 50;
const slowestPollMs = 5_000;

function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, milliseconds);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Follows a task an upstream answered a call with, to its end, as the call's
 * own result: polled at the interval the upstream suggests; its questions
 * put to the caller and answered with `tasks/update` (each once); its status
 * messages passed on as progress; cancelled upstream when the call is. The
 * host's own call may itself have become a task for its caller, read on any
 * replica; this one stays where it runs, on the replica that holds it.
 */
export async function followUpstreamTask(
  created: Record<string, unknown>,
  channel: UpstreamTaskChannel,
): Promise<unknown> {
  const taskId = created.taskId;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new UpstreamInputError('it answered with a task that has no taskId');
  }
  const answered = new Set<string>();
  let steps = 0;
  let told: string | undefined;
  // A CreateTaskResult carries no result, error or questions, whatever its status: those come with tasks/get.
  let task: Record<string, unknown> = created.status === 'working' ? created : { ...created, status: 'unread' };
  let ended = false;
  try {
    for (;;) {
      const message = task.statusMessage;
      if (typeof message === 'string' && message !== told) {
        told = message;
        steps += 1;
        channel.onProgress?.({ progress: steps, message });
      }
      switch (task.status) {
        case 'completed':
          ended = true;
          return task.result ?? { content: [] };
        case 'failed': {
          ended = true;
          const error = (task.error ?? {}) as { code?: unknown; message?: unknown };
          throw new UpstreamRpcError(
            typeof error.code === 'number' ? error.code : -32603,
            typeof error.message === 'string' ? error.message : 'the task failed',
          );
        }
        case 'cancelled':
          ended = true;
          throw new UpstreamRpcError(-32603, 'the server cancelled the task before it finished');
        case 'input_required':
          await answerQuestions(taskId, task.inputRequests, answered, channel);
          break;
        case 'unread':
          break;
        default:
          await wait(pollIntervalOf(task), channel.signal);
      }
      task = (await channel.request('tasks/get', { taskId })) as Record<string, unknown>;
    }
  } catch (error) {
    // The call ends here (cancelled, out of time, a question nobody could answer): so does the upstream's work.
    if (!ended) void channel.request('tasks/cancel', { taskId }).catch(() => {});
    throw error;
  }
}

function pollIntervalOf(task: Record<string, unknown>): number {
  const suggested = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 1_000;
  return Math.min(slowestPollMs, Math.max(fastestPollMs, suggested));
}

async function answerQuestions(
  taskId: string,
  inputRequests: unknown,
  answered: Set<string>,
  channel: UpstreamTaskChannel,
): Promise<void> {
  const requests = (typeof inputRequests === 'object' && inputRequests !== null ? inputRequests : {}) as Record<
    string,
    { method?: unknown; params?: unknown }
  >;
  const fresh = Object.entries(requests).filter(([key]) => !answered.has(key));
  if (fresh.length === 0) {
    // Answers already given; the upstream has not taken them in yet.
    await wait(pollIntervalOf({}), channel.signal);
    return;
  }
  const inputResponses: Record<string, unknown> = {};
  for (const [key, request] of fresh) {
    const method = typeof request.method === 'string' ? request.method : String(request.method);
    if (channel.answer === undefined) {
      throw new UpstreamInputError(`it needs an answer to ${method}, and nobody can be asked`, true);
    }
    inputResponses[key] = await channel.answer(method, (request.params ?? {}) as Record<string, unknown>);
    answered.add(key);
  }
  await channel.request('tasks/update', { taskId, inputResponses });
}
