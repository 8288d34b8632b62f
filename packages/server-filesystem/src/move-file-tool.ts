import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createMoveFileTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'move_file',
    title: 'Move File',
    description:
      'Move or rename a file or directory (a link itself, not its target); refuses an existing destination unless ' +
      'overwrite.',
    input: () =>
      toolArguments({
        source: pathArgument(),
        destination: pathArgument(),
        overwrite: z.boolean().default(false),
      }),
    output: () => textOutput({ source: z.string(), destination: z.string() }),
    jsonSchemas: toolJsonSchemas.move_file,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run({ source, destination, overwrite }, call) {
      const guard = await guardForCall(context, call);
      const from = await guard.resolve(source, { access: 'write', keepLastLink: true });
      const to = await guard.resolve(destination, { access: 'write', keepLastLink: true });
      if (!from.exists) throw new ToolError(`"${source}" does not exist.`);
      await guard.move(from, to, { overwrite });
      return textResult(`Successfully moved ${source} to ${destination}`, { source, destination });
    },
  });
}
