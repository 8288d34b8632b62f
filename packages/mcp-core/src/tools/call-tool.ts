import type { CallContext } from '../engine/call-context.ts';
import { wasStopped } from '../engine/request-stop.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { CallToolResult } from '../protocol/mcp-types.ts';
import { isToolResult, structuredResult, toolError } from '../results/tool-result.ts';
import type { Tool } from './define-tool.ts';
import { describeArgumentIssues } from './describe-argument-issues.ts';
import { type ArgumentCheck, checkArguments } from './tool-input.ts';

/** Reports failures that are the server's fault; the model only gets a safe message. */
export type ReportServerError = (error: unknown, where: string) => void;

/** Thrown to unwind a call whose request was cancelled: nothing is answered. */
export class CallCancelled extends Error {}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as CallToolResult).content);
}

function serverBug(tool: Tool, report: ReportServerError, error: unknown, what: string): CallToolResult {
  report(error, `tool "${tool.name}"`);
  return toolError(
    `Tool "${tool.name}" ${what}. The details were logged on the server; try again later or take another approach.`,
  );
}

/**
 * Runs one tool call: validates the arguments, runs the tool, and turns every
 * outcome — including a throw — into a result. Only cancellation escapes.
 *
 * A tool whose validator and `run` both answer synchronously is answered
 * synchronously: no promise is made for the call, so nothing of it is still
 * alive when the next request on the line is read.
 */
export function callTool(
  tool: Tool,
  rawArguments: Record<string, unknown>,
  context: CallContext,
  report: ReportServerError,
): CallToolResult | Promise<CallToolResult> {
  let input: Tool['input'];
  try {
    input = tool.input;
  } catch (error) {
    // A schema built on first use that failed to build: a fault of the server, found by its first call.
    return serverBug(tool, report, error, 'could not build its input schema');
  }
  const checking = checkArguments(input, rawArguments);
  if (checking instanceof Promise) {
    return checking.then((argumentCheck) => runChecked(tool, argumentCheck, context, report));
  }
  return runChecked(tool, checking, context, report);
}

function runChecked(
  tool: Tool,
  argumentCheck: ArgumentCheck,
  context: CallContext,
  report: ReportServerError,
): CallToolResult | Promise<CallToolResult> {
  if (!argumentCheck.ok) return toolError(describeArgumentIssues(`tool "${tool.name}"`, argumentCheck.issues));
  let value: unknown;
  try {
    value = tool.run(argumentCheck.value, context);
  } catch (error) {
    return runFailed(tool, error, context, report);
  }
  if (isThenable(value)) {
    return Promise.resolve(value).then(
      (settled) => finishCall(tool, settled, context, report),
      (error: unknown) => runFailed(tool, error, context, report),
    );
  }
  return finishCall(tool, value, context, report);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

function runFailed(tool: Tool, error: unknown, context: CallContext, report: ReportServerError): CallToolResult {
  if (wasStopped(context)) throw new CallCancelled();
  if (ToolError.isInstance(error)) return toolError(error.message);
  // A protocol error is the tool's deliberate answer (a capability the client lacks, a fault it names): a JSON-RPC error.
  if (ProtocolError.isInstance(error)) throw error;
  return serverBug(tool, report, error, 'failed unexpectedly');
}

/** Checks what `run` returned against the tool's output schema, if it has one, and makes it a result. */
function finishCall(tool: Tool, value: unknown, context: CallContext, report: ReportServerError): CallToolResult {
  if (wasStopped(context)) throw new CallCancelled();

  let output: Tool['output'];
  try {
    output = tool.output;
  } catch (error) {
    return serverBug(tool, report, error, 'could not build its output schema');
  }
  if (output === undefined) {
    // Built here, not with toolResult: the brand marks what a tool returns, and this never goes back to one.
    if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
    if (isToolResult(value) || isCallToolResult(value)) return value;
    return serverBug(tool, report, new TypeError('run returned neither a result nor text'), 'returned no result');
  }
  if (isToolResult(value)) {
    if (value.isError) return value;
    const checked = output.safeParse(value.structuredContent);
    if (checked.success) return value;
    return serverBug(tool, report, checked.error, 'produced output that does not match its declared schema');
  }
  const checked = output.safeParse(value);
  if (!checked.success) {
    return serverBug(tool, report, checked.error, 'produced output that does not match its declared schema');
  }
  return structuredResult(checked.data as Record<string, unknown>);
}
