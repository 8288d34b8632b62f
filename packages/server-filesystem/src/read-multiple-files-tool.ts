import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { readTextWindow } from './text-window.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

const maxPaths = 100;

export function createReadMultipleFilesTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'read_multiple_files',
    title: 'Read Multiple Files',
    description:
      'Read several text files in one call, each under its path; one failing does not stop the rest. Each is cut ' +
      `at ${context.limits.maxReadBytes} bytes (read on with read_text_file).`,
    input: () =>
      toolArguments({
        paths: z.array(z.string()).min(1, 'At least one file path must be provided').max(maxPaths),
      }),
    output: () =>
      textOutput({
        files: z.array(
          z.object({
            path: z.string(),
            ok: z.boolean(),
            truncated: z.boolean().optional(),
            error: z.string().optional(),
          }),
        ),
      }),
    jsonSchemas: toolJsonSchemas.read_multiple_files,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ paths }, call) {
      const guard = await guardForCall(context, call);
      const files = await Promise.all(
        paths.map(async (path) => {
          try {
            const handle = await guard.openFile(await guard.resolve(path));
            try {
              const window = await readTextWindow(handle, {
                maxBytes: context.limits.maxReadBytes,
                signal: call.signal,
              });
              const cut = window.truncated
                ? `\n[Cut at ${context.limits.maxReadBytes} bytes; read_text_file with offset: ${window.nextOffset} reads on.]`
                : '';
              return {
                text: `${path}:\n${window.text}${cut}\n`,
                summary: { path, ok: true, truncated: window.truncated },
              };
            } finally {
              await handle.close();
            }
          } catch (error) {
            const message = ToolError.isInstance(error) ? error.message : 'The file could not be read.';
            return { text: `${path}: Error - ${message}`, summary: { path, ok: false, error: message } };
          }
        }),
      );
      return textResult(files.map((file) => file.text).join('\n---\n'), { files: files.map((file) => file.summary) });
    },
  });
}
