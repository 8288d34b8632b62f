import type { CallContext, CallToolResult, Tool, ToolDescriptor } from '@toolshed/mcp-core';
import { toolError } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import type { ApprovalMode } from '../config/host-config.ts';
import type { ApprovalBroker } from '../console/approval-broker.ts';
import { hostTelemetry } from '../telemetry/host-telemetry.ts';
import { UpstreamInputError } from '../upstream/input-required-rounds.ts';
import type { Upstream } from '../upstream/upstream.ts';
import { UpstreamClosedError, UpstreamRpcError } from '../upstream/upstream-errors.ts';
import { anyArguments } from './any-arguments.ts';
import { passApprovalGate } from './approval-gate.ts';
import { approvalRequirement } from './approval-rule.ts';
import { type AuditEntry, argumentsDigest } from './audit-log.ts';
import { callDeadline } from './call-deadline.ts';
import { callId } from './call-id.ts';
import type { CallLimiter } from './call-limiter.ts';
import type { CallRecorder } from './call-recorder.ts';
import { asksByRetry, callerOf } from './caller.ts';
import { isoTimestamp } from './iso-timestamp.ts';
import { ParkedUpstreamCalls } from './parked-upstream-calls.ts';
import { createUpstreamForwarding } from './upstream-forwarding.ts';

export interface ProxyToolOptions {
  upstream: Upstream;
  /** The upstream's own descriptor. */
  descriptor: ToolDescriptor;
  /** The name clients see. */
  exposedName: string;
  /** Where the call is recorded; undefined records nothing. */
  audit: CallRecorder | undefined;
  limiter: CallLimiter | undefined;
  /** The host-wide time limit now, for servers without their own (a reload may change it). */
  hostTimeoutMs(): number | undefined;
  /** Where calls wait for a decision in the console; undefined when the host has none. */
  approvals?: ApprovalBroker | undefined;
  /** The host-wide approval mode now, for servers that set none. Default `elicit-or-console`. */
  hostApprovalMode?: (() => ApprovalMode) | undefined;
  /** Where replicas see which of them holds a parked call. */
  state?: (() => StateStore) | undefined;
  /** Where this replica answers, for a retry that reaches another one to be relayed here. */
  endpoint?: (() => string | undefined) | undefined;
}

/**
 * A call still running this long, asking nothing, becomes a task for a
 * client that takes tasks: it is read with tasks/get, on any replica,
 * instead of holding a request open past the client's patience.
 */
const taskAfterMs = 2_000;

/** A call nobody answers must still end: long enough for real work, and a server's own setting wins. */
const defaultToolTimeoutMs = 10 * 60_000;

/** Why a call did not run when the state store could not be reached: the host never runs a call it cannot account for. */
function storeRefusal(exposedName: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `${exposedName} was not run: the host cannot reach its state store to record and check it (${reason}). Try again shortly.`;
}

/** What an upstream failure tells the model. */
function failureMessage(server: string, tool: string, error: unknown): string {
  if (error instanceof UpstreamInputError)
    return `${server} could not finish ${tool}: ${error.message.replace(/\.?$/, '.')}`;
  if (error instanceof UpstreamClosedError) return `${server} stopped before it answered ${tool}: ${error.message}`;
  if (error instanceof UpstreamRpcError) return `${server} refused the call: ${error.message}`;
  return `${server} could not run ${tool}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * A tool on the host that stands for one upstream tool. A call is recorded
 * as started before anything runs, then: the rate limit is checked, the
 * human asked when the call needs approval (the model's arguments can never
 * answer), the budget taken, the call forwarded with the caller's progress,
 * cancellation and questions, and its record completed before the answer
 * goes back. A store that cannot be reached refuses the call: never run
 * unaudited, never run past a budget nobody counted.
 */
export function createProxyTool(options: ProxyToolOptions): Tool {
  const { upstream, descriptor, exposedName, audit, limiter } = options;
  const settings = upstream.entry;
  const requirement = approvalRequirement(descriptor.name, descriptor.annotations, settings.approval);
  const forwarding = createUpstreamForwarding(upstream, descriptor.name, exposedName, options.state, options.endpoint);
  /** 2026-era calls approved in the console that go on across the caller's retries, by call key. */
  const grants = new Map<string, number>();

  return {
    name: exposedName,
    descriptor: { ...descriptor, name: exposedName },
    input: anyArguments,
    output: undefined,
    task: { support: 'optional', afterMs: taskAfterMs },
    async run(args: Record<string, unknown>, context: CallContext): Promise<CallToolResult> {
      const started = performance.now();
      const telemetry = hostTelemetry();
      const digest = argumentsDigest(args);
      // Only a call that waits for a human needs finding again on a retry: a hash of the arguments saved on every other.
      const retryKey =
        requirement.required && asksByRetry(context)
          ? ParkedUpstreamCalls.keyOf(context, exposedName, args)
          : undefined;
      const now = Date.now();
      const start = {
        id: callId(now),
        time: isoTimestamp(now),
        caller: callerOf(context),
        server: settings.name,
        tool: exposedName,
        upstream_tool: descriptor.name,
        arguments_sha256: digest,
        approval: (requirement.required
          ? 'unavailable'
          : requirement.because === 'operator waived'
            ? 'waived'
            : 'not_required') as AuditEntry['approval'],
      };
      const traceId = telemetry?.traceId();
      if (traceId !== undefined) Object.assign(start, { trace_id: traceId });
      let approval = start.approval;
      let finished = false;
      const finish = async (outcome: AuditEntry['outcome'], error?: string) => {
        // Once: an attempt that ended to ask is not ended again by its abort.
        if (finished) return;
        finished = true;
        if (retryKey !== undefined && outcome !== 'input_required') grants.delete(retryKey);
        if (telemetry !== undefined) {
          // A refusal by the human is told apart by what they decided.
          const shown =
            outcome === 'refused' && (approval === 'declined' || approval === 'expired') ? approval : outcome;
          telemetry.callEnded(
            { server: settings.name, tool: exposedName, outcome: shown },
            (performance.now() - started) / 1000,
          );
        }
        await audit
          ?.complete({
            ...start,
            approval,
            duration_ms: Math.round(performance.now() - started),
            outcome,
            ...(error === undefined ? {} : { error }),
          })
          .catch(() => {});
      };
      const refuse = async (outcome: AuditEntry['outcome'], message: string) => {
        await finish(outcome, message);
        return toolError(message);
      };

      try {
        await audit?.begin(start);
      } catch (error) {
        // The row may have been written even so (the connection dropped as it committed): its ending is
        // recorded too, now or once the store is back, so that it does not stay `started`.
        return await refuse('refused', storeRefusal(exposedName, error));
      }
      try {
        // Checked before asking the human, taken after: a 2026-era caller runs this from the top once per answer.
        if (limiter !== undefined) {
          const limitedNow = await limiter.check();
          if (limitedNow !== undefined) return await refuse('rate_limited', limitedNow);
        }
        // A call that needs no human's yes passes as its start says (not required, or waived), without the gate.
        if (requirement.required) {
          const gateInput = {
            upstream,
            descriptor,
            exposedName,
            args,
            argumentsDigest: digest,
            context,
            requirement,
            broker: options.approvals,
            hostApprovalMode: options.hostApprovalMode,
            retryKey,
            grants,
            attemptAsked: () => {
              approval = 'asked';
              void finish('input_required');
            },
          };
          const gate =
            telemetry !== undefined
              ? await telemetry.approvalWait(exposedName, context.signal, () => passApprovalGate(gateInput))
              : await passApprovalGate(gateInput);
          approval = gate.approval;
          if ('cancelled' in gate) {
            await finish('cancelled');
            throw gate.cancelled;
          }
          if (!gate.pass) return await refuse('refused', gate.message);
        }
        if (limiter !== undefined) {
          const limited = await limiter.take();
          if (limited !== undefined) return await refuse('rate_limited', limited);
        }
      } catch (error) {
        if (context.signal.aborted) {
          await finish('cancelled');
          throw error;
        }
        return await refuse('refused', storeRefusal(exposedName, error));
      }

      const timeoutMs = settings.toolTimeoutMs ?? options.hostTimeoutMs() ?? defaultToolTimeoutMs;
      const deadline = callDeadline(context.signal, timeoutMs);
      try {
        const result = (
          telemetry === undefined
            ? await forwarding.call(args, context, deadline)
            : await telemetry.upstreamCall({ server: settings.name, tool: descriptor.name }, (traceContext) =>
                forwarding.call(args, context, deadline, traceContext),
              )
        ) as CallToolResult;
        await finish(result.isError === true ? 'tool_error' : 'ok');
        return result;
      } catch (error) {
        if (context.signal.aborted) {
          await finish('cancelled');
          throw error;
        }
        if (deadline.timeout.aborted) {
          return await refuse(
            'timeout',
            `${exposedName} did not finish within ${timeoutMs} ms, the limit for this tool; it was cancelled.`,
          );
        }
        const message = failureMessage(settings.name, descriptor.name, error);
        return await refuse(error instanceof UpstreamInputError && error.refused ? 'refused' : 'error', message);
      } finally {
        deadline.dispose();
      }
    },
  } as Tool;
}
