import { Buffer } from 'node:buffer';
import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createWriteFileTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'write_file',
    title: 'Write File',
    description:
      'Create a file, or replace one without warning (atomically, keeping its permissions). ' +
      `At most ${context.limits.maxFileBytes} bytes.`,
    input: () => toolArguments({ path: pathArgument(), content: z.string() }),
    output: () => textOutput({ bytes: z.number().int(), created: z.boolean() }),
    jsonSchemas: toolJsonSchemas.write_file,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run({ path, content }, call) {
      const bytes = Buffer.byteLength(content);
      if (bytes > context.limits.maxFileBytes) {
        throw new ToolError(`The content is ${bytes} bytes; at most ${context.limits.maxFileBytes} can be written.`);
      }
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path, { access: 'write' });
      await guard.writeFile(target, content);
      return textResult(`Successfully wrote to ${path}`, { bytes, created: !target.exists });
    },
  });
}
