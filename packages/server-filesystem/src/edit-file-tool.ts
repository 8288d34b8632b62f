import { createHash } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { type CallContext, defineTool, type Tool, ToolError, type ToolResult, toolViewMeta } from '@toolshed/mcp-core';
import { createTwoFilesPatch } from 'diff';
import * as z from 'zod';
import { applyEdits } from './apply-edits.ts';
import { editReviewViewUri } from './edit-review-view.ts';
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
    output: () =>
      textOutput({
        changed: z.boolean(),
        written: z.boolean(),
        digest: z.string().describe('SHA-256 of the file before the edits, hex'),
      }),
    jsonSchemas: toolJsonSchemas.edit_file,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    // Clients that render views show a dry run's diff side by side, with an Apply that calls edit_file again.
    meta: toolViewMeta({ resourceUri: editReviewViewUri }),
    run: ({ path, edits, dryRun }, call) => runEdit(context, { path, edits, dryRun }, call),
  });
}

/** An edit to run: the tool's arguments, and the digest the file must still have (an edit reviewed in a view). */
interface EditRequest {
  path: string;
  edits: { oldText: string; newText: string }[];
  dryRun: boolean;
  expectedDigest?: string;
}

/** What edit_file and apply_reviewed_edit do: read, check, diff, and unless a dry run, write. */
export async function runEdit(
  context: FilesystemServerContext,
  { path, edits, dryRun, expectedDigest }: EditRequest,
  call: CallContext,
): Promise<ToolResult> {
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
  const digest = createHash('sha256').update(original).digest('hex');
  if (expectedDigest !== undefined && expectedDigest !== digest) {
    throw new ToolError(
      `"${path}" changed since the dry run that was reviewed; nothing was written. Run the dry run again and review it.`,
    );
  }
  const windowsLineEnds = original.includes('\r\n');
  const content = original.replaceAll('\r\n', '\n');
  const modified = applyEdits(content, edits);
  const diff = fenced(createTwoFilesPatch(target.path, target.path, content, modified, 'original', 'modified'));
  const changed = modified !== content;
  if (!dryRun && changed) {
    await guard.writeFile(target, windowsLineEnds ? modified.replaceAll('\n', '\r\n') : modified);
  }
  return textResult(diff, { changed, written: !dryRun && changed, digest });
}
