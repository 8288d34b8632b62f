import { fstatSync } from 'node:fs';
import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import { createTwoFilesPatch } from 'diff';
import * as z from 'zod';
import { applyEdits } from './apply-edits.ts';
import { type FilesystemToolContext, guardForCall, pathArgument } from './filesystem-tool-context.ts';
import { textResult } from './text-result.ts';

/** A fence longer than any run of backticks in the diff, so the block cannot be closed early. */
function fenced(diff: string): string {
  let fence = '```';
  while (diff.includes(fence)) fence += '`';
  return `${fence}diff\n${diff}${fence}\n\n`;
}

export function createEditFileTool(context: FilesystemToolContext): Tool {
  return defineTool({
    name: 'edit_file',
    title: 'Edit File',
    description:
      'Make line-based edits to a text file. Each edit replaces exact line sequences with new content (falling ' +
      'back to matching lines with different indentation). Returns a git-style diff showing the changes made; ' +
      'with dryRun nothing is written. All edits apply or none. Windows line ends are kept. ' +
      'Only works within allowed directories.',
    input: z.object({
      path: pathArgument,
      edits: z
        .array(
          z.object({
            oldText: z.string().describe('Text to search for - must match exactly'),
            newText: z.string().describe('Text to replace with'),
          }),
        )
        .min(1),
      dryRun: z.boolean().default(false).describe('Preview changes using git-style diff format'),
    }),
    output: z.object({ content: z.string(), changed: z.boolean(), written: z.boolean() }),
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
