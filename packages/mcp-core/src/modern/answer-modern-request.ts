import type { AuthInfo } from '../engine/call-context.ts';
import { handleEngineRequest } from '../engine/handle-engine-request.ts';
import { createProgressReporter } from '../engine/progress-reporter.ts';
import type { ServerCore } from '../engine/server-core.ts';
import { invalidParams, methodNotFound } from '../errors/common-protocol-errors.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type {
  JsonRpcErrorResponse,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../messages/jsonrpc-message.ts';
import { MetaKey } from '../protocol/meta-keys.ts';
import { supportedProtocolVersions } from '../protocol/protocol-version.ts';
import { CallCancelled } from '../tools/call-tool.ts';
import { type InputRequiredResult, InputRound } from './input-round.ts';
import { ModernRequestContext } from './modern-request-context.ts';
import { type CacheHints, completeModernResult } from './modern-result.ts';
import { readRequestMeta } from './request-meta.ts';
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
}

/** One request's way back to its client: its own stream, which closing cancels the request. */
export interface ModernExchange {
  /** Aborted when the client cancels or goes away. */
  readonly signal: AbortSignal;
  readonly auth: AuthInfo | undefined;
  /** Sends a notification that belongs to this request (progress, logs, subscription events). */
  notify(notification: JsonRpcNotification): void;
  /** Aborted when the transport shuts down: an open subscription then ends with its closing result. */
  readonly ending?: AbortSignal;
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

/**
 * Answers one 2026-era request from what it carries alone: `_meta` gives the
 * version, the client's identity and capabilities; nothing is remembered
 * between requests, so any replica can answer any request. Resolves
 * `undefined` when the request was cancelled (nothing may be sent for it).
 */
export async function answerModernRequest(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
): Promise<JsonRpcResponse | undefined> {
  try {
    return await answer(services, request, exchange);
  } catch (error) {
    if (exchange.signal.aborted || error instanceof CallCancelled) return undefined;
    if (ProtocolError.isInstance(error)) return errorResponse(request, error);
    services.core.report(error, `request ${request.method.slice(0, 100)}`);
    return {
      jsonrpc: '2.0',
      id: request.id,
      error: { code: JsonRpcErrorCode.InternalError, message: 'Internal error' },
    };
  }
}

async function answer(
  services: ModernServices,
  request: JsonRpcRequest,
  exchange: ModernExchange,
): Promise<JsonRpcResponse | undefined> {
  const { core } = services;
  const { id, method } = request;
  const params = request.params ?? {};
  // The order the revision implies: required fields, then the version, then the method.
  const meta = readRequestMeta(params);
  if (!modernMethods.has(method)) throw methodNotFound(method);
  const complete = (result: Record<string, unknown>): JsonRpcResponse => ({
    jsonrpc: '2.0',
    id,
    result: completeModernResult(method, result, core.info, services.cacheHints),
  });

  if (method === 'server/discover') {
    const result: Record<string, unknown> = {
      supportedVersions: supportedProtocolVersions,
      capabilities: core.capabilities(),
    };
    if (core.instructions !== undefined) result.instructions = core.instructions;
    return complete(result);
  }
  if (method === 'subscriptions/listen') {
    const filter = agreeFilter(core, params);
    const closing = exchange.ending === undefined ? [services.closing] : [services.closing, exchange.ending];
    const endedByServer = await serveSubscription(core, id, filter, exchange.notify, exchange.signal, closing);
    if (!endedByServer) return undefined;
    return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id } } };
  }

  const principal = exchange.auth?.subject ?? '';
  const round = mayAskClient.has(method) ? InputRound.open(services.seal, method, params, principal) : undefined;
  if (round?.state !== undefined) await spendState(services.ledger, round.state);
  const attempt = new AbortController();
  const stop = () => attempt.abort(exchange.signal.reason);
  exchange.signal.addEventListener('abort', stop, { once: true });
  const progress = createProgressReporter(meta.progressToken, exchange.notify);
  const context = new ModernRequestContext(
    meta,
    round,
    core.elicitationUnavailable,
    attempt.signal,
    progress.report,
    exchange.auth,
    exchange.notify,
  );
  try {
    const work = handleEngineRequest(core, method, params, context);
    const outcome: Record<string, unknown> | InputRequiredResult =
      round === undefined ? await work : await Promise.race([work, round.ended]);
    if (exchange.signal.aborted) return undefined;
    if (isInputRequired(outcome)) {
      // The handler waits on a question that never settles; stop whatever else it started.
      work.catch(() => {});
      attempt.abort(new CallCancelled());
      return {
        jsonrpc: '2.0',
        id,
        result: { ...outcome, _meta: { [MetaKey.serverInfo]: core.info } },
      };
    }
    return complete(outcome as Record<string, unknown>);
  } finally {
    progress.finish();
    exchange.signal.removeEventListener('abort', stop);
  }
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
