import { defineTool, type Tool, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { runEdit } from './edit-file-tool.ts';
import { type FilesystemServerContext, pathArgument } from './filesystem-server-context.ts';
import { textOutput } from './text-result.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/**
 * `apply_reviewed_edit`: the edit review view's Apply — the edits of the dry
 * run the user reviewed, written only if the file still has the digest that
 * dry run reported. App-only, so a model never sees it (edit_file is its
 * tool) and it costs no tokens; destructive, so a host asks the human before
 * it runs exactly as it asks for edit_file: the click in the view is never
 * the yes.
 */
export function createApplyReviewedEditTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'apply_reviewed_edit',
    title: 'Apply a reviewed edit',
    description: 'Writes the edits of a reviewed edit_file dry run, refused if the file changed since (its digest).',
    input: () =>
      toolArguments({
        path: pathArgument(),
        edits: z.array(toolArguments({ oldText: z.string(), newText: z.string() })).min(1),
        digest: z.string().regex(/^[0-9a-f]{64}$/, 'the dry run’s SHA-256 digest, hex'),
      }),
    output: () =>
      textOutput({
        changed: z.boolean(),
        written: z.boolean(),
        digest: z.string().describe('SHA-256 of the file before the edits, hex'),
      }),
    jsonSchemas: toolJsonSchemas.apply_reviewed_edit,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    meta: toolViewMeta({ visibility: ['app'] }),
    run: ({ path, edits, digest }, call) =>
      runEdit(context, { path, edits, dryRun: false, expectedDigest: digest }, call),
  });
}
