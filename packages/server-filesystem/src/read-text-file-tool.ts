import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { readTextWindow } from './text-window.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

function lineCount(): z.ZodNumber {
  return z.number().int().min(1);
}

/** read_text_file, and read_file: the reference server's deprecated name for it. */
export function createReadTextFileTool(context: FilesystemServerContext, name: 'read_text_file' | 'read_file'): Tool {
  const deprecated = name === 'read_file';
  return defineTool({
    name,
    title: deprecated ? 'Read File (Deprecated)' : 'Read Text File',
    description: deprecated
      ? 'Deprecated: use read_text_file.'
      : 'Read a file as UTF-8 text: all of it, head or tail N lines, or limit lines from offset. ' +
        `A read over ${context.limits.maxReadBytes} bytes is cut at a line, with next_offset to read on.`,
    input: () =>
      toolArguments({
        path: pathArgument(),
        head: lineCount().optional(),
        tail: lineCount().optional(),
        offset: lineCount().optional().describe('From 1'),
        limit: lineCount().optional(),
      }),
    output: () =>
      textOutput({
        total_lines: z.number().int(),
        first_line: z.number().int().describe('0 when no line was returned'),
        last_line: z.number().int(),
        truncated: z.boolean(),
        next_offset: z.number().int().optional().describe('Pass as offset to read on'),
      }),
    jsonSchemas: toolJsonSchemas[name],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(args, call) {
      const windows = [args.head, args.tail, args.offset ?? args.limit].filter((value) => value !== undefined);
      if (windows.length > 1) {
        throw new ToolError(
          'Cannot specify both head and tail parameters simultaneously; use one of head, tail or offset/limit.',
        );
      }
      const guard = await guardForCall(context, call);
      const handle = await guard.openFile(await guard.resolve(args.path));
      try {
        const window = await readTextWindow(handle, {
          head: args.head,
          tail: args.tail,
          offset: args.offset,
          limit: args.limit,
          maxBytes: context.limits.maxReadBytes,
          signal: call.signal,
        });
        const extra: Record<string, unknown> = {
          total_lines: window.totalLines,
          first_line: window.firstLine,
          last_line: window.lastLine,
          truncated: window.truncated,
        };
        if (window.nextOffset !== undefined) extra.next_offset = window.nextOffset;
        const note = window.truncated
          ? `[Cut at ${context.limits.maxReadBytes} bytes: lines ${window.firstLine}-${window.lastLine} of ${window.totalLines}. ` +
            `Call again with offset: ${window.nextOffset} to read on.]`
          : undefined;
        return textResult(window.text, extra, note);
      } finally {
        await handle.close();
      }
    },
  });
}
