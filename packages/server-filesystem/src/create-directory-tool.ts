import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createCreateDirectoryTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'create_directory',
    title: 'Create Directory',
    description: 'Create a directory and any missing parents; succeeds if it exists.',
    input: () => toolArguments({ path: pathArgument() }),
    output: () => textOutput({ created: z.boolean() }),
    jsonSchemas: toolJsonSchemas.create_directory,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path }, call) {
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path, { access: 'write' });
      await guard.makeDirectory(target);
      return textResult(`Successfully created directory ${path}`, { created: !target.exists });
    },
  });
}
