import { fileSystemToolError } from '@toolshed/guards';
import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createGetFileInfoTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'get_file_info',
    title: 'Get File Info',
    description: 'Size, times, permissions and type of a file or directory.',
    input: () => toolArguments({ path: pathArgument() }),
    output: () =>
      textOutput({
        size: z.number(),
        created: z.string().describe('ISO 8601'),
        modified: z.string().describe('ISO 8601'),
        accessed: z.string().describe('ISO 8601'),
        isDirectory: z.boolean(),
        isFile: z.boolean(),
        permissions: z.string().describe('Octal, as in 644'),
      }),
    jsonSchemas: toolJsonSchemas.get_file_info,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path }, call) {
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path);
      // Loaded here, not imported, to keep node:fs/promises off the start-up path.
      const { stat } = process.getBuiltinModule('node:fs/promises');
      const stats = await stat(target.path).catch((error: unknown) => {
        throw fileSystemToolError(error, path);
      });
      const info = {
        size: stats.size,
        created: stats.birthtime,
        modified: stats.mtime,
        accessed: stats.atime,
        isDirectory: stats.isDirectory(),
        isFile: stats.isFile(),
        permissions: stats.mode.toString(8).slice(-3),
      };
      const text = Object.entries(info)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
      return textResult(text, {
        ...info,
        created: info.created.toISOString(),
        modified: info.modified.toISOString(),
        accessed: info.accessed.toISOString(),
      });
    },
  });
}
