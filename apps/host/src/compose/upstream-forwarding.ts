import type { CallContext } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import * as z from 'zod';
import type { Upstream } from '../upstream/upstream.ts';
import { UpstreamRpcError } from '../upstream/upstream-errors.ts';
import { asksByRetry, callerCapabilities, callerIdentity } from './caller.ts';
import { ParkedUpstreamCall, ParkedUpstreamCalls, parkedCallLifetimeMs } from './parked-upstream-calls.ts';

const anyArguments = z.looseObject({});

/** Answers what an upstream asks in the middle of a call, through the caller's own client. */
function serverRequestHandler(context: CallContext) {
  return async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case 'elicitation/create': {
        const outcome = await context.elicit({
          message: String(params.message ?? ''),
          schema: anyArguments,
          ...(params.requestedSchema === undefined
            ? {}
            : { requestedSchema: params.requestedSchema as Record<string, unknown> }),
        });
        if (outcome.action === 'unavailable') throw new UpstreamRpcError(-32603, outcome.reason);
        return outcome.action === 'accept'
          ? { action: 'accept', content: outcome.content }
          : { action: outcome.action };
      }
      case 'sampling/createMessage':
        return context.sample(params as never);
      case 'roots/list': {
        const roots = await context.roots();
        if (roots === undefined) throw new UpstreamRpcError(-32603, 'the client does not offer roots');
        return { roots };
      }
      default:
        throw new UpstreamRpcError(-32601, `${method} is not forwarded by the host`);
    }
  };
}

/**
 * Forwards calls of one upstream tool with the caller's progress,
 * cancellation and questions: in the legacy era the upstream's questions
 * are the caller's own requests; a 2026-era caller answers by retrying, and
 * a legacy upstream waits for the answer in the middle of its call, so the
 * call is parked between attempts and resumed by the retry, never sent twice.
 */
export function createUpstreamForwarding(
  upstream: Upstream,
  tool: string,
  /** The tool's name on the host: part of what identifies a call across retries. */
  exposedName: string,
  /** Where every replica sees which one holds a parked call; undefined for a host on its own. */
  shared: (() => StateStore) | undefined,
  /** Where this replica answers: a retry that reaches another replica is relayed here. */
  endpoint?: () => string | undefined,
) {
  const parked = new ParkedUpstreamCalls();

  async function relayAcrossRetries(
    args: Record<string, unknown>,
    context: CallContext,
    timeout: AbortSignal | undefined,
    traceContext: Record<string, string> | undefined,
  ): Promise<unknown> {
    const key = ParkedUpstreamCalls.keyOf(context, exposedName, args);
    const resumed = parked.resume(key, context);
    if (resumed !== undefined) return resumed.result;
    // The upstream's connection for a parked call is in the replica that started it: a retry that reached
    // another one must not start the call a second time.
    const store = shared?.();
    // A retry reaching another replica is normally relayed to this one before it gets here (see relayTarget).
    const holder = await store?.parkedCalls.holder(key, Date.now());
    if (holder !== undefined && holder.replica !== store?.replica) {
      throw new UpstreamRpcError(
        -32603,
        holder.alive
          ? `this call is still waiting for its answer on another replica of the host (${holder.replica}), which could not be reached from here; send the answer again shortly, or wait for the call to time out`
          : `the replica of the host that held this call (${holder.replica}) has stopped; the call ended there and was not run again here`,
      );
    }
    const call: ParkedUpstreamCall = new ParkedUpstreamCall(context, (callSignal, onQuestion) =>
      upstream.call(tool, args, {
        signal: timeout === undefined ? callSignal : AbortSignal.any([callSignal, timeout]),
        onProgress: (update) => call.context.progress(update.progress, update.total, update.message),
        onServerRequest: (method, params) => onQuestion((current) => serverRequestHandler(current)(method, params)),
        clientCapabilities: callerCapabilities(context),
        // Sent once, for the caller who started it; a retry that resumes it has the same subject (it is in the key).
        ...callerIdentity(upstream, context),
        traceContext,
      }),
    );
    parked.add(key, call);
    if (store !== undefined) {
      await store.parkedCalls.hold(key, Date.now() + parkedCallLifetimeMs, endpoint?.());
      void call.result.finally(() => store.parkedCalls.release(key)).catch(() => {});
    }
    return call.result;
  }

  return {
    /**
     * Runs the call on the upstream; `deadline.timeout` ends a parked call
     * too. `traceContext` goes in the request's `_meta`.
     */
    call(
      args: Record<string, unknown>,
      context: CallContext,
      deadline: { signal: AbortSignal; timeout: AbortSignal },
      traceContext?: Record<string, string>,
    ): Promise<unknown> {
      if (upstream.callsInProcess) return upstream.callInProcess(tool, args, context, deadline.signal);
      if (asksByRetry(context) && upstream.identity?.era !== 'modern') {
        return relayAcrossRetries(args, context, deadline.timeout, traceContext);
      }
      return upstream.call(tool, args, {
        signal: deadline.signal,
        onProgress: (update) => context.progress(update.progress, update.total, update.message),
        onServerRequest: serverRequestHandler(context),
        clientCapabilities: callerCapabilities(context),
        ...callerIdentity(upstream, context),
        traceContext,
      });
    },
  };
}
