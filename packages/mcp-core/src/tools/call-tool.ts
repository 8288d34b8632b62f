import type { CallContext } from '../engine/call-context.ts';
import { wasStopped } from '../engine/request-stop.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { CallToolResult } from '../protocol/mcp-types.ts';
import { isToolResult, structuredResult, toolError } from '../results/tool-result.ts';
import type { Tool } from './define-tool.ts';
import { describeArgumentIssues } from './describe-argument-issues.ts';
import { checkArguments } from './tool-input.ts';

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
 */
export async function callTool(
  tool: Tool,
  rawArguments: Record<string, unknown>,
  context: CallContext,
  report: ReportServerError,
): Promise<CallToolResult> {
  let input: Tool['input'];
  try {
    input = tool.input;
  } catch (error) {
    // A schema built on first use that failed to build: a fault of the server, found by its first call.
    return serverBug(tool, report, error, 'could not build its input schema');
  }
  const checking = checkArguments(input, rawArguments);
  const argumentCheck = checking instanceof Promise ? await checking : checking;
  if (!argumentCheck.ok) return toolError(describeArgumentIssues(`tool "${tool.name}"`, argumentCheck.issues));

  let value: unknown;
  try {
    value = await tool.run(argumentCheck.value, context);
  } catch (error) {
    if (wasStopped(context)) throw new CallCancelled();
    if (ToolError.isInstance(error)) return toolError(error.message);
    // A protocol error is the tool's deliberate answer (a capability the client lacks, a fault it names): a JSON-RPC error.
    if (ProtocolError.isInstance(error)) throw error;
    return serverBug(tool, report, error, 'failed unexpectedly');
  }
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
