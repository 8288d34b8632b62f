import { listVariesByCaller } from '../apps/list-varies-by-caller.ts';
import type { AuthInfo, CallContext } from '../engine/call-context.ts';
import { handleEngineRequest } from '../engine/handle-engine-request.ts';
import { isStopped, LinkedStop, type StopSource } from '../engine/linked-stop.ts';
import { createProgressReporter } from '../engine/progress-reporter.ts';
import type { RequestFacts } from '../engine/request-telemetry.ts';
import type { ServerCore } from '../engine/server-core.ts';
import { invalidParams, methodNotFound } from '../errors/common-protocol-errors.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type {
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../messages/jsonrpc-message.ts';
import { MetaKey } from '../protocol/meta-keys.ts';
import { supportedProtocolVersions } from '../protocol/protocol-version.ts';
import { type TaskOutcome, TaskStopped } from '../tasks/running-task.ts';
import { TaskEscalation } from '../tasks/task-escalation.ts';
import { type TaskService, tasksUndeclared } from '../tasks/task-service.ts';
import { createTaskResult, declaresTasks, tasksExtension } from '../tasks/task-wire.ts';
import { CallCancelled } from '../tools/call-tool.ts';
import { type InputRequiredResult, InputRound } from './input-round.ts';
import { ModernRequestContext } from './modern-request-context.ts';
import { type CacheHints, completeModernResult } from './modern-result.ts';
import { type RequestMeta, readRequestMeta } from './request-meta.ts';
import type { RequestStateLedger, RequestStatePayload, RequestStateSeal } from './request-state.ts';
import { agreeFilter, serveSubscription } from './subscription-listen.ts';

/** What every 2026-era request of one server shares. */
export interface ModernServices {
  readonly core: ServerCore;
  readonly seal: RequestStateSeal;
  /** Where each accepted requestState is spent, so that it is accepted once. */
  readonly ledger: RequestStateLedger;
  readonly cacheHints: CacheHints;
  /** Aborted when the server closes: open subscriptions end gracefully. */
  readonly closing: AbortSignal;
  /** The server's tasks (the `io.modelcontextprotocol/tasks` extension). */
  readonly tasks: TaskService;
}

/**
 * One request's way back to its client: its own stream, which closing cancels the request. Its `signal` is aborted
 * when the client cancels or goes away.
 */
export interface ModernExchange extends StopSource {
  readonly auth: AuthInfo | undefined;
  /** Sends a notification that belongs to this request (progress, logs, subscription events). */
  notify(notification: JsonRpcNotification): void;
  /** Aborted when the transport shuts down: an open subscription then ends with its closing result. */
  readonly ending?: AbortSignal;
  /** What telemetry calls the carrier: `pipe` for stdio, `tcp` for HTTP. */
  readonly networkTransport?: 'pipe' | 'tcp' | undefined;
}

/** The methods the 2026-07-28 revision defines for a client to send a server. */
const modernMethods = new Set([
  'server/discover',
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** The only requests that may answer `input_required`. */
const mayAskClient = new Set(['tools/call', 'prompts/get', 'resources/read']);

function isInputRequired(outcome: object): outcome is InputRequiredResult {
  return (outcome as { resultType?: unknown }).resultType === 'input_required';
}

function errorResponse(request: JsonRpcRequest, error: ProtocolError): JsonRpcErrorResponse {
  // 2026-07-28 retired -32002: a resource that does not exist is invalid params.
  const code = error.code === JsonRpcErrorCode.ResourceNotFound ? JsonRpcErrorCode.InvalidParams : error.code;
  const body: JsonRpcErrorResponse['error'] = { code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return { jsonrpc: '2.0', id: request.id, error: body };
}

/** A request's response, or undefined once it was cancelled and nothing may be sent for it. */
type Answered = JsonRpcResponse | undefined;

/**
 * Answers one 2026-era request from what it carries alone: `_meta` gives the
 * version, the client's identity and capabilities; nothing is remembered
 * between requests, so any replica can answer any request. Gives
 * `undefined` when the request was cancelled (nothing may be sent for it).
 * A request answered without waiting (a synchronous tool, a list) is
 * answered synchronously. It never throws, nor does the promise reject.
 */
export function answerModernRequest(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
): Answered | Promise<Answered> {
  const { telemetry } = services.core;
  if (telemetry === undefined) return answerOrError(services, request, exchange);
  return telemetry.serve(
    request,
    () => modernFacts(request, exchange),
    () => answerOrError(services, request, exchange),
  );
}

/** 2026-era requests carry their version and have no session. */
function modernFacts(request: JsonRpcRequest, exchange: ModernExchange): RequestFacts {
  const meta = request.params?._meta;
  const version = isPlainObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
  return {
    protocolVersion: typeof version === 'string' ? version : undefined,
    sessionId: undefined,
    networkTransport: exchange.networkTransport,
  };
}

function answerOrError(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
): Answered | Promise<Answered> {
  let answered: Answered | Promise<Answered>;
  try {
    answered = answer(services, request, exchange);
  } catch (error) {
    return failed(services, request, exchange, error);
  }
  if (answered instanceof Promise) {
    return answered.catch((error: unknown) => failed(services, request, exchange, error));
  }
  return answered;
}

/** The answer to a request whose handling threw: nothing once it was cancelled, else the error it names. */
function failed(services: ModernServices, request: JsonRpcRequest, exchange: ModernExchange, error: unknown): Answered {
  if (isStopped(exchange) || error instanceof CallCancelled) return undefined;
  if (ProtocolError.isInstance(error)) return errorResponse(request, error);
  services.core.report(error, `request ${request.method.slice(0, 100)}`);
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: JsonRpcErrorCode.InternalError, message: 'Internal error' },
  };
}

/** What one attempt at a request needs beyond the request itself. */
interface AttemptPlan {
  readonly meta: RequestMeta;
  readonly round: InputRound | undefined;
  readonly taskSupport: ReturnType<typeof taskSupportOf>;
  readonly mayBecomeTask: boolean;
  readonly complete: (result: Record<string, unknown>) => JsonRpcResponse;
}

function answer(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
): Answered | Promise<Answered> {
  const { core } = services;
  const { id, method } = request;
  const params = request.params ?? {};
  // The order the revision implies: required fields, then the version, then the method.
  const meta = readRequestMeta(params);
  if (!modernMethods.has(method)) throw methodNotFound(method);
  const complete = (result: Record<string, unknown>): JsonRpcResponse => ({
    jsonrpc: '2.0',
    id,
    result: completeModernResult(method, result, core.info, services.cacheHints, listVariesByCaller(core, method)),
  });

  if (method === 'server/discover') {
    const result: Record<string, unknown> = {
      supportedVersions: supportedProtocolVersions,
      capabilities: { ...core.capabilities(), extensions: { [tasksExtension]: {} } },
    };
    if (core.instructions !== undefined) result.instructions = core.instructions;
    return complete(result);
  }
  const principal = exchange.auth?.subject ?? '';
  if (method === 'subscriptions/listen') return listen(services, request, exchange, meta, principal);

  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') {
    return services.tasks.answer(method, params, meta.capabilities, principal).then(complete);
  }
  const taskSupport = method === 'tools/call' ? taskSupportOf(core, params) : undefined;
  const mayBecomeTask = taskSupport !== undefined && declaresTasks(meta.capabilities);
  if (taskSupport?.support === 'required' && !mayBecomeTask) {
    throw tasksUndeclared(`tool "${String(params.name).slice(0, 64)}" runs only as a task`);
  }
  const round = mayAskClient.has(method) ? InputRound.open(services.seal, method, params, principal) : undefined;
  const plan: AttemptPlan = { meta, round, taskSupport, mayBecomeTask, complete };
  if (round?.state !== undefined) {
    return spendState(services.ledger, round.state).then(() => runAttempt(services, request, exchange, plan));
  }
  return runAttempt(services, request, exchange, plan);
}

async function listen(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
  meta: RequestMeta,
  principal: string,
): Promise<Answered> {
  const { core } = services;
  const { id } = request;
  const params = request.params ?? {};
  const filter = agreeFilter(core, params);
  const requested = (params.notifications as { taskIds?: unknown } | undefined)?.taskIds;
  const taskIds = await services.tasks.agreeTaskIds(requested, meta.capabilities, principal);
  if (requested !== undefined) filter.taskIds = taskIds;
  const closing = exchange.ending === undefined ? [services.closing] : [services.closing, exchange.ending];
  const endedByServer = await serveSubscription(core, id, filter, exchange.notify, exchange.signal, closing, (send) =>
    services.tasks.watch(taskIds, principal, send),
  );
  if (!endedByServer) return undefined;
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id } } };
}

/**
 * Runs the handler once. A call that cannot become a task and whose handler
 * answers synchronously is answered synchronously, with no AbortSignal, race
 * or promise made for it; one that waits races its end against its question
 * to the client.
 */
function runAttempt(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
  plan: AttemptPlan,
): Answered | Promise<Answered> {
  if (plan.mayBecomeTask) return runEscalatingAttempt(services, request, exchange, plan);
  const { core } = services;
  const stop = new LinkedStop(exchange);
  const progress = createProgressReporter(plan.meta.progressToken, exchange.notify);
  const context = new ModernRequestContext(
    plan.meta,
    plan.round,
    core.elicitationUnavailable,
    stop,
    progress.report,
    exchange.auth,
    exchange.notify,
  );
  const done = () => {
    progress.finish();
    stop.release();
  };
  let work: Record<string, unknown> | Promise<Record<string, unknown>>;
  try {
    work = handleEngineRequest(core, request.method, request.params ?? {}, context);
  } catch (error) {
    done();
    throw error;
  }
  if (!(work instanceof Promise)) {
    done();
    return attemptAnswer(services, request, exchange, plan, work, stop);
  }
  const { round } = plan;
  const outcome = round === undefined ? work : Promise.race([work, round.ended]);
  return outcome.then(
    (settled) => {
      done();
      if (isInputRequired(settled)) work.catch(() => {});
      return attemptAnswer(services, request, exchange, plan, settled, stop);
    },
    (error: unknown) => {
      done();
      throw error;
    },
  );
}

/** What an attempt's outcome answers: the result, or `input_required` with the question the attempt stopped at. */
function attemptAnswer(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
  plan: AttemptPlan,
  outcome: Record<string, unknown> | InputRequiredResult,
  stop: { abort(reason: unknown): void },
): Answered {
  if (isStopped(exchange)) return undefined;
  if (isInputRequired(outcome)) {
    // The handler waits on a question that never settles; stop whatever else it started.
    stop.abort(new CallCancelled());
    return {
      jsonrpc: '2.0',
      id: request.id,
      result: { ...outcome, _meta: { [MetaKey.serverInfo]: services.core.info } },
    };
  }
  return plan.complete(outcome);
}

/** An attempt at a call that may become a task: its stop is a controller the task takes over. */
async function runEscalatingAttempt(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
  plan: AttemptPlan,
): Promise<Answered> {
  const { core } = services;
  const { id, method } = request;
  const params = request.params ?? {};
  const { round, taskSupport, meta } = plan;
  const principal = exchange.auth?.subject ?? '';
  const attempt = new AbortController();
  const stop = () => attempt.abort(exchange.signal.reason);
  exchange.signal.addEventListener('abort', stop, { once: true });
  const escalation = new TaskEscalation(
    services.tasks,
    principal,
    attempt,
    () => new Set(round?.usedKeys),
    () => exchange.signal.removeEventListener('abort', stop),
  );
  const progress = createProgressReporter(meta.progressToken, exchange.notify);
  const context = new ModernRequestContext(
    meta,
    round,
    core.elicitationUnavailable,
    attempt,
    progress.report,
    exchange.auth,
    exchange.notify,
    escalation,
  );
  try {
    const work = engineWork(core, method, params, context);
    if (taskSupport !== undefined) {
      escalation.escalateAfter(taskSupport.afterMs, () => round?.asking === true);
      const task = await answerAsTask(services, id, work, round, escalation, taskSupport.support === 'required');
      if (task !== undefined) return task;
    }
    const outcome: Record<string, unknown> | InputRequiredResult =
      round === undefined ? await work : await Promise.race([work, round.ended]);
    if (isInputRequired(outcome)) work.catch(() => {});
    return attemptAnswer(services, request, exchange, plan, outcome, attempt);
  } finally {
    progress.finish();
    exchange.signal.removeEventListener('abort', stop);
  }
}

/** How a tools/call may become a task: from the tool's definition, when the tool exists. */
function taskSupportOf(core: ServerCore, params: Record<string, unknown>) {
  return typeof params.name === 'string' ? core.tools.get(params.name)?.task : undefined;
}

/** A JSON-RPC error as a failed task carries it. */
function taskErrorOf(error: unknown, services: ModernServices): TaskOutcome {
  if (error instanceof CallCancelled || error instanceof TaskStopped) return { kind: 'stopped' };
  if (ProtocolError.isInstance(error)) {
    const body: { code: number; message: string; data?: unknown } = { code: error.code, message: error.message };
    if (error.data !== undefined) body.data = error.data;
    return { kind: 'error', error: body };
  }
  services.core.report(error, 'task');
  return { kind: 'error', error: { code: JsonRpcErrorCode.InternalError, message: 'Internal error' } };
}

/**
 * Waits for the first of: the call's end, its question to the client, or
 * its becoming a task. Resolves the CreateTaskResult in the last case (the
 * work then goes on as the task, and its outcome is recorded there), and
 * undefined in the others, which the request answers as always. A task-only
 * tool that ends before it became a task still answers with a task, already
 * complete.
 */
async function answerAsTask(
  services: ModernServices,
  id: JsonRpcRequest['id'],
  work: Promise<Record<string, unknown>>,
  round: InputRound | undefined,
  escalation: TaskEscalation,
  required: boolean,
): Promise<JsonRpcResponse | undefined> {
  const settled = work.then(
    () => 'ended' as const,
    () => 'ended' as const,
  );
  const first = await Promise.race([
    settled,
    escalation.started.then(() => 'task' as const),
    ...(round === undefined ? [] : [round.ended.then(() => 'asking' as const)]),
  ]);
  if (first === 'asking') {
    escalation.forgo();
    return undefined;
  }
  if (first === 'ended' && !required) {
    escalation.forgo();
    return undefined;
  }
  if (first === 'ended') void escalation.begin(undefined);
  const created = await escalation.created();
  if (created === undefined) {
    if (required) {
      throw new ProtocolError(
        JsonRpcErrorCode.InternalError,
        'This tool runs as a task, and no task could be created; try again shortly',
      );
    }
    return undefined;
  }
  const { task, record } = created;
  const ended = work.then(
    (result): TaskOutcome => ({ kind: 'result', result: { ...result, resultType: 'complete' } }),
    (error: unknown) => taskErrorOf(error, services),
  );
  const recorded = ended.then((outcome) => services.tasks.end(task, outcome));
  // A call that was over before its task was made is answered with the task already complete.
  if (first === 'ended') await recorded;
  else void recorded.catch((error: unknown) => services.core.report(error, `task ${task.taskId}`));
  const now = Date.now();
  const current = first === 'ended' ? ((await services.tasks.store.get(task.taskId)) ?? record) : record;
  return {
    jsonrpc: '2.0',
    id,
    result: { ...createTaskResult(current, now), _meta: { [MetaKey.serverInfo]: services.core.info } },
  };
}

/**
 * A state is accepted once: a replay of one that carried a yes must not run
 * the call again, on this replica or any other sharing the ledger. State
 * sealed before nonces existed has none and is accepted as before.
 */
async function spendState(ledger: RequestStateLedger, state: RequestStatePayload): Promise<void> {
  if (state.nonce === undefined) return;
  let first: boolean;
  try {
    first = await ledger.spend(state.nonce, state.expiresAt);
  } catch (error) {
    throw new ProtocolError(
      JsonRpcErrorCode.InternalError,
      `requestState could not be checked against replays (${error instanceof Error ? error.message : String(error)}); try again shortly`,
    );
  }
  if (!first) throw invalidParams('Invalid params: requestState was already used; send the request again without it');
}

/** The engine's answer as a promise, a synchronous throw included, as the task escalation and the race expect. */
function engineWork(
  core: ServerCore,
  method: string,
  params: JsonRpcParams,
  context: CallContext,
): Promise<Record<string, unknown>> {
  try {
    return Promise.resolve(handleEngineRequest(core, method, params, context));
  } catch (error) {
    return Promise.reject(error);
  }
}
