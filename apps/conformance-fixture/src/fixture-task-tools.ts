import { defineTool, JsonRpcErrorCode, ProtocolError, type Tool, toolError } from '@toolshed/mcp-core';
import * as z from 'zod';

/** Waits, or throws the signal's reason when the call is cancelled first. */
function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, milliseconds);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The tools the tasks extension's scenarios call (`io.modelcontextprotocol/tasks`). */
export const taskTools: Tool[] = [
  defineTool({
    name: 'greet',
    description: 'Greets by name, at once; never a task',
    input: z.object({ name: z.string() }),
    run: ({ name }) => `Hello, ${name}!`,
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Waits the given seconds, then answers; a task for clients that take tasks',
    input: z.object({ seconds: z.number().min(0).max(600), label: z.string().max(200).optional() }),
    task: 'optional',
    taskAfterMs: 0,
    run: async ({ seconds, label }, context) => {
      await sleep(seconds * 1000, context.signal);
      return `Computed ${label ?? 'result'} after ${seconds} s`;
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Runs as a task and ends with a tool error after about a second',
    input: z.object({}),
    task: 'required',
    run: async (_args, context) => {
      await sleep(1000, context.signal);
      return toolError('failing_job failed, as it always does');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Runs as a task and fails with a JSON-RPC error',
    input: z.object({}),
    task: 'optional',
    taskAfterMs: 0,
    run: async (_args, context) => {
      await sleep(200, context.signal);
      throw new ProtocolError(JsonRpcErrorCode.InternalError, 'protocol_error_job failed with an internal error');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Becomes a task, then asks the user to confirm deleting a file',
    input: z.object({ filename: z.string().max(200) }),
    task: 'optional',
    run: async ({ filename }, context) => {
      await context.continueAsTask('waiting for confirmation');
      const answer = await context.elicit({
        message: `Delete ${filename}?`,
        schema: z.object({ confirm: z.boolean() }),
      });
      const yes = answer.action === 'accept' && answer.content.confirm;
      return yes ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Becomes a task, then asks two questions at once',
    input: z.object({}),
    task: 'optional',
    run: async (_args, context) => {
      await context.continueAsTask();
      const [name, confirm] = await Promise.all([
        context.elicit({ message: 'Your name?', schema: z.object({ name: z.string() }) }),
        context.elicit({ message: 'Go ahead?', schema: z.object({ confirm: z.boolean() }) }),
      ]);
      const who = name.action === 'accept' ? name.content.name : 'nobody';
      const go = confirm.action === 'accept' && confirm.content.confirm;
      return `${who} said ${go ? 'yes' : 'no'}`;
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: 'Asks a name as a round of the request, then goes on as a task that greets',
    input: z.object({}),
    task: 'required',
    run: async (_args, context) => {
      const answer = await context.elicit({
        key: 'user_name',
        message: 'What is your name?',
        schema: z.object({ name: z.string() }),
      });
      await context.continueAsTask('greeting');
      await sleep(300, context.signal);
      return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
    },
  }),
];
