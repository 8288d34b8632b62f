import {
  type AuthInfo,
  type CallContext,
  type CallToolResult,
  type ConfirmOutcome,
  type Tool,
  type ToolDescriptor,
  toolError,
} from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ApprovalMode } from '../config/host-config.ts';
import type { ApprovalBroker } from '../console/approval-broker.ts';
import { UpstreamInputError } from '../upstream/input-required-rounds.ts';
import type { Upstream } from '../upstream/upstream.ts';
import { UpstreamClosedError, UpstreamRpcError } from '../upstream/upstream-errors.ts';
import { approvalMode, approvalRequirement } from './approval-rule.ts';
import { type AuditEntry, argumentsDigest } from './audit-log.ts';
import { callDeadline } from './call-deadline.ts';
import type { CallLimiter } from './call-limiter.ts';
import { previewOf, waitForConsoleApproval } from './console-approval.ts';
import { ParkedUpstreamCall, ParkedUpstreamCalls, parkedCallLifetimeMs } from './parked-upstream-calls.ts';

export interface ProxyToolOptions {
  upstream: Upstream;
  /** The upstream's own descriptor. */
  descriptor: ToolDescriptor;
  /** The name clients see. */
  exposedName: string;
  /** Where the call's audit line goes. */
  audit: { write(entry: AuditEntry): void } | undefined;
  limiter: CallLimiter | undefined;
  /** The host-wide time limit now, for servers without their own (a reload may change it). */
  hostTimeoutMs(): number | undefined;
  /** Where calls wait for a decision in the console; undefined when the host has none. */
  approvals?: ApprovalBroker | undefined;
  /** The host-wide approval mode now, for servers that set none. Default `elicit-or-console`. */
  hostApprovalMode?: (() => ApprovalMode) | undefined;
}

/** A call nobody answers must still end: long enough for real work, and a server's own setting wins. */
const defaultToolTimeoutMs = 10 * 60_000;

const anyArguments = z.looseObject({});

function callerOf(context: CallContext): string {
  const client = context.client.info;
  const who =
    client === undefined
      ? 'unknown client'
      : `${client.name}${client.version === undefined ? '' : `/${client.version}`}`;
  return context.auth?.subject === undefined ? who : `${who} as ${context.auth.subject}`;
}

function quoteArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2);
  return text.length > 1500 ? `${text.slice(0, 1500)}\n… (${text.length} characters in all)` : text;
}

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

/** The caller's verified identity, for a server of ours mounted in this process only. */
function callerIdentity(upstream: Upstream, context: CallContext): { authInfo?: AuthInfo } {
  return upstream.receivesCallerIdentity && context.auth !== undefined ? { authInfo: context.auth } : {};
}

/** Whether the caller's client can put a form question to its user (elicitation in form mode). */
function canAsk(context: CallContext): boolean {
  const elicitation = (context.client.capabilities as { elicitation?: { form?: unknown; url?: unknown } }).elicitation;
  // An elicitation capability with no mode predates modes and means forms.
  return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Whether the caller answers questions by retrying its request (the 2026 era) rather than in the middle of it. */
function asksByRetry(context: CallContext): boolean {
  return context.protocolVersion >= '2026-07-28';
}

/**
 * What the caller of a call can answer through the host, as a modern
 * upstream is told on that call's request (it declares capabilities per
 * request), so that it asks only what will reach someone.
 */
function callerCapabilities(context: CallContext): Record<string, unknown> {
  const caller = context.client.capabilities as {
    elicitation?: { form?: unknown; url?: unknown };
    sampling?: unknown;
    roots?: unknown;
  };
  // An elicitation capability with no mode predates modes and means forms; forms are all the host passes on.
  const forms =
    caller.elicitation !== undefined && (caller.elicitation.form !== undefined || caller.elicitation.url === undefined);
  return {
    ...(forms ? { elicitation: { form: {} } } : {}),
    ...(caller.sampling === undefined ? {} : { sampling: {} }),
    ...(caller.roots === undefined ? {} : { roots: {} }),
  };
}

/**
 * A tool on the host that stands for one upstream tool: the upstream's
 * descriptor under the exposed name, and a run that checks the rate limit,
 * asks the human when the call needs approval (the model's arguments can
 * never answer), forwards the call with the caller's progress, cancellation
 * and elicitation (an upstream's questions are put to the caller in either
 * era: as its own requests in the legacy era, as the input_required rounds
 * of the modern one), returns the upstream's result as it came, and writes one
 * audit line whatever happens.
 */
export function createProxyTool(options: ProxyToolOptions): Tool {
  const { upstream, descriptor, exposedName, audit, limiter } = options;
  const settings = upstream.entry;
  const requirement = approvalRequirement(descriptor.name, descriptor.annotations, settings.approval);
  const parked = new ParkedUpstreamCalls();
  /**
   * A 2026-era call approved in the console that then answers an upstream's
   * question by retrying: the retry runs from the top and must not be put to
   * the console again. Held by the caller and the exact arguments until the
   * call ends, and never longer than a parked call lives.
   */
  const consoleGrants = new Map<string, number>();
  /**
   * A 2026-era caller answers a question by retrying its request, and a
   * legacy upstream waits for the answer in the middle of its call: the call
   * is parked between attempts and resumed by the retry, never sent twice.
   */
  function relayAcrossRetries(
    args: Record<string, unknown>,
    context: CallContext,
    timeout: AbortSignal | undefined,
  ): Promise<unknown> {
    const key = ParkedUpstreamCalls.keyOf(context, args);
    const resumed = parked.resume(key, context);
    if (resumed !== undefined) return resumed.result;
    const call: ParkedUpstreamCall = new ParkedUpstreamCall(context, (callSignal, onQuestion) =>
      upstream.call(descriptor.name, args, {
        signal: timeout === undefined ? callSignal : AbortSignal.any([callSignal, timeout]),
        onProgress: (update) => call.context.progress(update.progress, update.total, update.message),
        onServerRequest: (method, params) => onQuestion((current) => serverRequestHandler(current)(method, params)),
        clientCapabilities: callerCapabilities(context),
        // Sent once, for the caller who started it; a retry that resumes it has the same subject (it is in the key).
        ...callerIdentity(upstream, context),
      }),
    );
    parked.add(key, call);
    return call.result;
  }

  return {
    name: exposedName,
    descriptor: { ...descriptor, name: exposedName },
    input: anyArguments,
    output: undefined,
    async run(args: Record<string, unknown>, context: CallContext): Promise<CallToolResult> {
      const started = performance.now();
      let approval: AuditEntry['approval'] = requirement.required
        ? 'unavailable'
        : requirement.because === 'operator waived'
          ? 'waived'
          : 'not_required';
      const grantKey = asksByRetry(context) ? ParkedUpstreamCalls.keyOf(context, args) : undefined;
      const finish = (outcome: AuditEntry['outcome'], error?: string) => {
        const entry: AuditEntry = {
          time: new Date().toISOString(),
          caller: callerOf(context),
          server: settings.name,
          tool: exposedName,
          upstream_tool: descriptor.name,
          arguments_sha256: argumentsDigest(args),
          approval,
          duration_ms: Math.round(performance.now() - started),
          outcome,
          ...(error === undefined ? {} : { error }),
        };
        audit?.write(entry);
        if (grantKey !== undefined) consoleGrants.delete(grantKey);
      };

      // Checked before asking the human, taken after: a 2026-era caller runs this from the top once per answer.
      const limitedNow = limiter?.check();
      if (limitedNow !== undefined) {
        finish('rate_limited', limitedNow);
        return toolError(limitedNow);
      }
      const grant = grantKey === undefined ? undefined : consoleGrants.get(grantKey);
      if (requirement.required && grant !== undefined && grant > Date.now()) {
        approval = 'approved';
      } else if (requirement.required) {
        const why =
          requirement.because === 'operator rule'
            ? 'the operator requires approval for it'
            : 'it may change or delete things';
        const mode = approvalMode(descriptor.name, settings.approval, options.hostApprovalMode?.());
        const broker = options.approvals;
        const inConsole =
          mode === 'console' || (mode === 'elicit-or-console' && !canAsk(context) && broker?.consoleUrl !== undefined);
        if (inConsole) {
          if (broker?.consoleUrl === undefined) {
            const message = `${exposedName} needs a human's approval in the Toolshed console, and no console is running; it was not run. Ask the operator to start the host with --console.`;
            finish('refused', message);
            return toolError(message);
          }
          const preview = await previewOf(upstream, descriptor.name, args, context.signal);
          const verdict = await waitForConsoleApproval(
            broker,
            {
              caller: callerOf(context),
              server: settings.name,
              tool: exposedName,
              upstreamTool: descriptor.name,
              arguments: args,
              argumentsDigest: argumentsDigest(args),
              reason: `${why[0]?.toUpperCase()}${why.slice(1)}.`,
              ...(preview === undefined ? {} : { preview }),
            },
            context,
          );
          if (verdict.decision === 'cancelled' && context.signal.aborted) {
            finish('cancelled');
            throw context.signal.reason;
          }
          if (verdict.decision !== 'approved') {
            approval =
              verdict.decision === 'denied' ? 'declined' : verdict.decision === 'expired' ? 'expired' : 'cancelled';
            const message =
              verdict.decision === 'denied'
                ? `A human denied ${exposedName} in the Toolshed console; it was not run. Do not retry unless the user asks.`
                : verdict.decision === 'expired'
                  ? `Nobody approved ${exposedName} in the Toolshed console within ${Math.round(broker.timeLimitMs / 1000)} s; it was not run. Ask the user to approve it there, then call it again.`
                  : `${exposedName} was not run: the console stopped before anyone decided.`;
            finish('refused', message);
            return toolError(message);
          }
          approval = 'approved';
          if (grantKey !== undefined) consoleGrants.set(grantKey, Date.now() + parkedCallLifetimeMs);
        } else {
          // A client that cannot ask makes confirm throw (the engine fails closed); that is a refusal too.
          const decision = await context
            .confirm(
              `Allow ${exposedName} (${descriptor.name} on ${settings.name})? ${why[0]?.toUpperCase()}${why.slice(1)}.\n\nArguments:\n${quoteArguments(args)}`,
            )
            .catch((): ConfirmOutcome => {
              if (context.signal.aborted) throw context.signal.reason;
              return { confirmed: false, action: 'unavailable' };
            });
          if (!decision.confirmed) {
            // `accept` without a yes: the user answered, but not with a yes (an unchecked box, or an answer that
            // does not fit the question). A refusal like a decline, not a client that cannot ask.
            approval =
              decision.action === 'decline' || decision.action === 'accept'
                ? 'declined'
                : decision.action === 'cancel'
                  ? 'cancelled'
                  : 'unavailable';
            const message =
              decision.action === 'unavailable'
                ? `${exposedName} needs a human's approval, and this client cannot ask for it; it was not run. Use a client that supports elicitation, or ask the operator${mode === 'elicit' ? '' : ' to start the host with --console, where a human can approve it'}.`
                : decision.action === 'accept'
                  ? `The user's answer to the approval question was not a yes; ${exposedName} was not run. Do not retry unless the user asks.`
                  : `The user ${decision.action === 'decline' ? 'declined' : 'dismissed'} ${exposedName}; it was not run. Do not retry unless the user asks.`;
            finish('refused', message);
            return toolError(message);
          }
          approval = 'approved';
        }
      }
      const limited = limiter?.take();
      if (limited !== undefined) {
        finish('rate_limited', limited);
        return toolError(limited);
      }

      const timeoutMs = settings.toolTimeoutMs ?? options.hostTimeoutMs() ?? defaultToolTimeoutMs;
      const deadline = callDeadline(context.signal, timeoutMs);
      try {
        const result = (await (upstream.callsInProcess
          ? upstream.callInProcess(descriptor.name, args, context, deadline.signal)
          : asksByRetry(context) && upstream.identity?.era !== 'modern'
            ? relayAcrossRetries(args, context, deadline.timeout)
            : upstream.call(descriptor.name, args, {
                signal: deadline.signal,
                onProgress: (update) => context.progress(update.progress, update.total, update.message),
                onServerRequest: serverRequestHandler(context),
                clientCapabilities: callerCapabilities(context),
                ...callerIdentity(upstream, context),
              }))) as CallToolResult;
        finish(result.isError === true ? 'tool_error' : 'ok');
        return result;
      } catch (error) {
        if (context.signal.aborted) {
          finish('cancelled');
          throw error;
        }
        if (deadline.timeout.aborted) {
          const message = `${exposedName} did not finish within ${timeoutMs} ms, the limit for this tool; it was cancelled.`;
          finish('timeout', message);
          return toolError(message);
        }
        if (error instanceof UpstreamInputError) {
          const message = `${settings.name} could not finish ${descriptor.name}: ${error.message.replace(/\.?$/, '.')}`;
          finish(error.refused ? 'refused' : 'error', message);
          return toolError(message);
        }
        const message =
          error instanceof UpstreamClosedError
            ? `${settings.name} stopped before it answered ${descriptor.name}: ${error.message}`
            : error instanceof UpstreamRpcError
              ? `${settings.name} refused the call: ${error.message}`
              : `${settings.name} could not run ${descriptor.name}: ${error instanceof Error ? error.message : String(error)}`;
        finish('error', message);
        return toolError(message);
      } finally {
        deadline.dispose();
      }
    },
  } as Tool;
}
