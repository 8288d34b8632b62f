import { fstatSync } from 'node:fs';
import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import { createTwoFilesPatch } from 'diff';
import * as z from 'zod';
import { applyEdits } from './apply-edits.ts';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { textOutput, textResult } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/** A fence longer than any run of backticks in the diff, so the block cannot be closed early. */
function fenced(diff: string): string {
  let fence = '```';
  while (diff.includes(fence)) fence += '`';
  return `${fence}diff\n${diff}${fence}\n\n`;
}

export function createEditFileTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'edit_file',
    title: 'Edit File',
    description:
      'Replace exact line sequences in a text file (or the same lines indented differently); all edits apply or ' +
      'none. Returns a git-style diff; dryRun writes nothing.',
    input: () =>
      toolArguments({
        path: pathArgument(),
        edits: z
          .array(
            toolArguments({
              oldText: z.string().describe('Exact text'),
              newText: z.string(),
            }),
          )
          .min(1),
        dryRun: z.boolean().default(false),
      }),
    output: () => textOutput({ changed: z.boolean(), written: z.boolean() }),
    jsonSchemas: toolJsonSchemas.edit_file,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run({ path, edits, dryRun }, call) {
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path, { access: dryRun ? 'read' : 'write' });
      const handle = await guard.openFile(target);
      let original: string;
      try {
        const { size } = fstatSync(handle.fd);
        if (size > context.limits.maxFileBytes) {
          throw new ToolError(
            `"${path}" is ${size} bytes; files over ${context.limits.maxFileBytes} bytes are not edited.`,
          );
        }
        original = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
      const windowsLineEnds = original.includes('\r\n');
      const content = original.replaceAll('\r\n', '\n');
      const modified = applyEdits(content, edits);
      const diff = fenced(createTwoFilesPatch(target.path, target.path, content, modified, 'original', 'modified'));
      const changed = modified !== content;
      if (!dryRun && changed) {
        await guard.writeFile(target, windowsLineEnds ? modified.replaceAll('\n', '\r\n') : modified);
      }
      return textResult(diff, { changed, written: !dryRun && changed });
    },
  });
}
