import type { CallContext } from '../engine/call-context.ts';
import type { ServerCore } from '../engine/server-core.ts';
import { invalidParams } from '../errors/common-protocol-errors.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import type { GetPromptResult } from '../protocol/mcp-types.ts';
import { describeArgumentIssues } from '../tools/describe-argument-issues.ts';
import type { PromptGetValue } from './define-prompt.ts';

function toPromptResult(value: PromptGetValue, name: string): GetPromptResult {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value)) return { messages: value };
  if (typeof value === 'object' && value !== null && Array.isArray(value.messages)) return value;
  throw new TypeError(`Prompt "${name}" get returned neither text, messages, nor a result with messages`);
}

export function listPrompts(core: ServerCore, params: JsonRpcParams): Record<string, unknown> {
  const page = core.prompts.page(params.cursor, core.pageSize, 'prompts/list', (prompt) => prompt.name);
  const result: Record<string, unknown> = { prompts: page.items };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

/** Unknown prompts and bad arguments are -32602, as the spec asks; the arguments are named in the message. */
export async function getPrompt(
  core: ServerCore,
  params: JsonRpcParams,
  context: CallContext,
): Promise<Record<string, unknown>> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string') throw invalidParams('prompts/get needs params.name, the prompt name as a string');
  const prompt = core.prompts.get(name);
  if (prompt === undefined) {
    throw invalidParams(`Unknown prompt: "${name.slice(0, 100)}". Call prompts/list for the available prompts.`);
  }
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalidParams('prompts/get params.arguments must be an object of string values');
  }
  // A prompt without arguments gets none, whatever was sent: what z.object({}) would have given it.
  const parsed = prompt.arguments?.safeParse(args ?? {}) ?? { success: true, data: {} };
  if (!parsed.success) throw invalidParams(describeArgumentIssues(`prompt "${name}"`, parsed.error.issues));
  let value: PromptGetValue;
  try {
    value = await prompt.get(parsed.data, context);
  } catch (error) {
    if (ToolError.isInstance(error)) throw new ProtocolError(JsonRpcErrorCode.InternalError, error.message);
    throw error;
  }
  const result = toPromptResult(value, name);
  if (result.description === undefined && prompt.descriptor.description !== undefined) {
    return { description: prompt.descriptor.description, ...result };
  }
  return { ...result };
}
