import { Buffer } from 'node:buffer';
import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createWriteFileTool(context: FilesystemServerContext): Tool {
  const { maxFileBytes } = context.limits;
  return defineTool({
    name: 'write_file',
    title: 'Write File',
    description:
      'Create a file, or replace one without warning (atomically, keeping its permissions), or append. ' +
      `At most ${maxFileBytes} bytes.`,
    // `mode` is an argument rather than a tool of its own: one enum costs a model fewer tokens on every turn
    // than another tool's name, description and schema.
    input: () =>
      toolArguments({
        path: pathArgument(),
        content: z.string(),
        mode: z.enum(['replace', 'append']).default('replace'),
      }),
    output: () => textOutput({ bytes: z.number().int(), created: z.boolean() }),
    jsonSchemas: toolJsonSchemas.write_file,
    // Not idempotent: an append repeated appends twice, so a host must not retry it on its own.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run({ path, content, mode }, call) {
      const bytes = Buffer.byteLength(content);
      if (bytes > maxFileBytes) {
        throw new ToolError(`The content is ${bytes} bytes; at most ${maxFileBytes} can be written.`);
      }
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path, { access: 'write' });
      if (mode === 'append') {
        const { created } = await guard.appendFile(target, content, { maxFileBytes });
        return textResult(`Successfully appended to ${path}`, { bytes, created });
      }
      await guard.writeFile(target, content);
      return textResult(`Successfully wrote to ${path}`, { bytes, created: !target.exists });
    },
  });
}
