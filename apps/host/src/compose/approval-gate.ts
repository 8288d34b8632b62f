import type { CallContext, ConfirmOutcome, ToolDescriptor } from '@toolshed/mcp-core';
import type { ApprovalMode } from '../config/host-config.ts';
import type { ApprovalBroker } from '../console/approval-broker.ts';
import type { Upstream } from '../upstream/upstream.ts';
import { type ApprovalRequirement, approvalMode } from './approval-rule.ts';
import type { AuditEntry } from './audit-log.ts';
import { asksByRetry, callerOf, canAsk } from './caller.ts';
import { previewOf, waitForConsoleApproval } from './console-approval.ts';
import { parkedCallLifetimeMs } from './parked-upstream-calls.ts';

export interface ApprovalGateInput {
  upstream: Upstream;
  descriptor: ToolDescriptor;
  exposedName: string;
  args: Record<string, unknown>;
  argumentsDigest: string;
  context: CallContext;
  requirement: ApprovalRequirement;
  broker: ApprovalBroker | undefined;
  hostApprovalMode: (() => ApprovalMode) | undefined;
  /**
   * For a 2026-era caller: the key of this exact call (caller, tool,
   * arguments), which finds its console request again on a retry, and
   * `grants`, where an approved call that goes on across the caller's
   * retries (an upstream asking mid-call) is held so it is not put to the
   * console again.
   */
  retryKey: string | undefined;
  grants: Map<string, number>;
  /**
   * Called when a 2026-era caller's question ends the attempt: the question
   * never settles and the call does not go on (its retry with the answer is
   * a call of its own), so the attempt's audit row is ended here.
   */
  attemptAsked?: () => void;
}

export type GateResult =
  | { pass: true; approval: AuditEntry['approval'] }
  | { pass: false; approval: AuditEntry['approval']; message: string }
  | { pass: false; approval: AuditEntry['approval']; cancelled: unknown };

function quoteArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, null, 2);
  return text.length > 1500 ? `${text.slice(0, 1500)}\n… (${text.length} characters in all)` : text;
}

const sentence = (text: string) => `${text[0]?.toUpperCase()}${text.slice(1)}.`;

/**
 * Whether a call may run: its approval asked of a human — in the console,
 * or through the caller's own client — when the tool needs one. The
 * model's arguments can never answer; anything but a clear yes refuses.
 */
export async function passApprovalGate(input: ApprovalGateInput): Promise<GateResult> {
  const { requirement, exposedName, descriptor, upstream, args, context, broker } = input;
  if (!requirement.required) {
    return { pass: true, approval: requirement.because === 'operator waived' ? 'waived' : 'not_required' };
  }
  const grant = input.retryKey === undefined ? undefined : input.grants.get(input.retryKey);
  if (grant !== undefined && grant > Date.now()) return { pass: true, approval: 'approved' };
  const why =
    requirement.because === 'operator rule'
      ? 'the operator requires approval for it'
      : 'it may change or delete things';
  const settings = upstream.entry;
  const mode = approvalMode(descriptor.name, settings.approval, input.hostApprovalMode?.());
  const inConsole =
    mode === 'console' || (mode === 'elicit-or-console' && !canAsk(context) && broker?.consoleUrl !== undefined);
  if (!inConsole) return askTheClient(input, sentence(why), mode);
  if (broker?.consoleUrl === undefined) {
    return {
      pass: false,
      approval: 'unavailable',
      message: `${exposedName} needs a human's approval in the Toolshed console, and no console is running; it was not run. Ask the operator to start the host with --console.`,
    };
  }
  // A human may take minutes: a client that takes tasks gets one now and reads the outcome later, instead of
  // holding its request open past its own patience.
  const isTask = await context.continueAsTask(`waiting for approval of ${exposedName} in the Toolshed console`);
  const preview = await previewOf(upstream, descriptor.name, args, context.signal);
  const verdict = await waitForConsoleApproval(
    broker,
    {
      caller: callerOf(context),
      server: settings.name,
      tool: exposedName,
      upstreamTool: descriptor.name,
      arguments: args,
      argumentsDigest: input.argumentsDigest,
      reason: sentence(why),
      ...(preview === undefined ? {} : { preview }),
      ...(input.retryKey === undefined ? {} : { retryKey: input.retryKey }),
    },
    context,
    // A 2026-era caller that gives up waiting retries the same call: its request stays for the retry to find.
    // A task is not retried: its end (tasks/cancel) ends the request.
    { keepOnAbort: asksByRetry(context) && !isTask },
  );
  if (verdict.decision === 'cancelled' && context.signal.aborted) {
    return { pass: false, approval: 'cancelled', cancelled: context.signal.reason };
  }
  if (verdict.decision === 'approved') {
    if (input.retryKey !== undefined) input.grants.set(input.retryKey, Date.now() + parkedCallLifetimeMs);
    return { pass: true, approval: 'approved' };
  }
  const messages = {
    denied: `A human denied ${exposedName} in the Toolshed console; it was not run. Do not retry unless the user asks.`,
    expired: `Nobody approved ${exposedName} in the Toolshed console within ${Math.round(broker.timeLimitMs / 1000)} s; it was not run. Ask the user to approve it there, then call it again.`,
    cancelled: `${exposedName} was not run: the console request ended before anyone decided.`,
    used: `${exposedName} was approved once and has already run under that approval; it was not run again. Call it again to ask anew.`,
  } as const;
  return {
    pass: false,
    approval: verdict.decision === 'denied' ? 'declined' : verdict.decision === 'expired' ? 'expired' : 'cancelled',
    message: messages[verdict.decision],
  };
}

async function askTheClient(input: ApprovalGateInput, why: string, mode: ApprovalMode): Promise<GateResult> {
  const { exposedName, descriptor, upstream, args, context } = input;
  // A client that cannot ask makes confirm throw (the engine fails closed); that is a refusal too.
  // A 2026-era question is answered from the retry or ends the attempt, which aborts its signal.
  const asked = input.attemptAsked;
  if (asked !== undefined && asksByRetry(context)) context.signal.addEventListener('abort', asked, { once: true });
  const decision = await context
    .confirm(
      `Allow ${exposedName} (${descriptor.name} on ${upstream.entry.name})? ${why}\n\nArguments:\n${quoteArguments(args)}`,
    )
    .catch((): ConfirmOutcome => {
      if (context.signal.aborted) throw context.signal.reason;
      return { confirmed: false, action: 'unavailable' };
    })
    .finally(() => {
      if (asked !== undefined) context.signal.removeEventListener('abort', asked);
    });
  if (decision.confirmed) return { pass: true, approval: 'approved' };
  // `accept` without a yes: the user answered, but not with a yes (an unchecked box, or an answer that
  // does not fit the question). A refusal like a decline, not a client that cannot ask.
  const approval =
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
  return { pass: false, approval, message };
}
