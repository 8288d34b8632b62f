import { MetaKey } from '@toolshed/mcp-core';
import type { ServerRequestHandler } from './upstream-session.ts';

/** How many times one request is retried with answers before the host stops asking the user. */
export const maxInputRounds = 10;

/** The requests a modern server may answer with `input_required`; for any other it is a server bug. */
export const inputRequiredMethods: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What a modern server may ask for in the middle of a request. */
const askable: Record<string, string> = {
  'elicitation/create': "the user's answer to a question",
  'sampling/createMessage': "a completion from the caller's model",
  'roots/list': "the caller's roots",
};

/**
 * A modern upstream needed input that the caller could not give, or kept
 * asking past the cap. The message completes "<server> could not finish
 * <tool>: …", for the model to read.
 */
export class UpstreamInputError extends Error {
  /** The caller could not give what was asked, as opposed to a server that misbehaved. */
  readonly refused: boolean;

  constructor(message: string, refused = false) {
    super(message);
    this.name = 'UpstreamInputError';
    this.refused = refused;
  }
}

type InputRequest = { method?: unknown; params?: unknown };

function resultTypeOf(result: unknown): string {
  const type = (result as { resultType?: unknown } | undefined)?.resultType;
  // Results from servers of the 2025 revisions have no resultType: they are complete.
  return typeof type === 'string' ? type : 'complete';
}

/**
 * The result without the era's framing, as a legacy result would have come:
 * no resultType, and no upstream serverInfo in `_meta` — the host answers as
 * itself, and the upstream's name is not the caller's business.
 */
function withoutResultType(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || !('resultType' in result)) return result;
  const { resultType: _framing, _meta: meta, ...rest } = result as Record<string, unknown>;
  if (typeof meta !== 'object' || meta === null) return meta === undefined ? rest : { ...rest, _meta: meta };
  const { [MetaKey.serverInfo]: _upstream, ...ownMeta } = meta as Record<string, unknown>;
  return Object.keys(ownMeta).length === 0 ? rest : { ...rest, _meta: ownMeta };
}

async function answerAll(
  inputRequests: Record<string, InputRequest>,
  answer: ServerRequestHandler | undefined,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  // One at a time: they are questions to one person, and a refusal ends the call without asking the rest.
  for (const [key, request] of Object.entries(inputRequests)) {
    const method = typeof request?.method === 'string' ? request.method : String(request?.method);
    const wanted = askable[method];
    if (wanted === undefined) throw new UpstreamInputError(`it asked for ${method}, which the host does not pass on`);
    if (answer === undefined)
      throw new UpstreamInputError(`it needs ${wanted} (${method}), and nobody can be asked`, true);
    try {
      responses[key] = await answer(method, (request.params ?? {}) as Record<string, unknown>);
    } catch (error) {
      // A caller who cancelled is not refusing: the cancellation goes on as it is.
      if (signal?.aborted === true) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new UpstreamInputError(`it needs ${wanted} (${method}), which could not be given: ${why}`, true);
    }
  }
  return responses;
}

/** The promise, or the signal's reason as soon as it aborts: a time limit does not wait for a person to answer. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * Runs one modern request to completion: while the server answers
 * `input_required`, the questions are put to whoever made the request and
 * the request is sent again (a new JSON-RPC id each time) with the answers
 * and the server's `requestState`, exactly as it came. A complete result
 * ends it, so nothing that finished is ever sent again; so does a task,
 * followed to its end.
 */
export async function runInputRounds(
  method: string,
  attempt: (retry: Record<string, unknown>) => Promise<unknown>,
  answer: ServerRequestHandler | undefined,
  signal: AbortSignal | undefined,
  /** Follows a task a tools/call was answered with to its result. */
  followTask?: (created: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown> {
  let retry: Record<string, unknown> = {};
  for (let round = 0; ; round++) {
    const result = await attempt(retry);
    const type = resultTypeOf(result);
    if (type === 'complete') return withoutResultType(result);
    if (type === 'task' && method === 'tools/call' && followTask !== undefined) {
      return withoutResultType(await followTask(result as Record<string, unknown>));
    }
    if (type !== 'input_required' || !inputRequiredMethods.has(method)) {
      throw new UpstreamInputError(
        `it answered ${method} with a result of type "${type}", which ${method} cannot have`,
      );
    }
    if (round >= maxInputRounds) {
      throw new UpstreamInputError(
        `it still wanted more input after ${maxInputRounds} rounds of answers; the host stopped asking`,
      );
    }
    const { inputRequests, requestState } = result as {
      inputRequests?: Record<string, InputRequest>;
      requestState?: unknown;
    };
    const inputResponses =
      inputRequests === undefined ? undefined : await abortable(answerAll(inputRequests, answer, signal), signal);
    signal?.throwIfAborted();
    retry = {
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(requestState === undefined ? {} : { requestState }),
    };
  }
}
