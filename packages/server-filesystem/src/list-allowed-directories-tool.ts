import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createListAllowedDirectoriesTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'list_allowed_directories',
    title: 'List Allowed Directories',
    description:
      'The directories this server may use (and all below), each read-write or read-only. Every path is ' +
      'absolute or relative to one of them.',
    input: () => toolArguments({}),
    output: () =>
      textOutput({
        directories: z.array(z.object({ path: z.string(), access: z.enum(['read', 'write']) })),
      }),
    jsonSchemas: toolJsonSchemas.list_allowed_directories,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(_args, call) {
      const guard = await guardForCall(context, call);
      const directories = guard.grants.map((grant) => ({
        path: grant.path,
        access: guard.readOnly ? ('read' as const) : grant.access,
      }));
      const text = `Allowed directories:\n${directories
        .map((directory) => (directory.access === 'read' ? `${directory.path} (read-only)` : directory.path))
        .join('\n')}`;
      return textResult(text, { directories });
    },
  });
}
