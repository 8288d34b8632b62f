import { defineTool, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { NoteStore } from './note-store.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/**
 * A destructive tool: questions before side effects. Everything before `confirm` only reads, because in the
 * 2026 protocol era a question ends the attempt and the client retries the call from the top with the answer;
 * the deletion runs only in the attempt that has the user's yes.
 */
export function createDeleteNoteTool(store: NoteStore): Tool {
  return defineTool({
    name: 'delete_note',
    title: 'Delete a note',
    description: 'Delete one note by id, after the user confirms. Cannot be undone.',
    input: () => z.object({ id: z.string().min(1).max(100) }),
    output: () => z.object({ deleted: z.string() }),
    jsonSchemas: toolJsonSchemas.delete_note,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id }, call) => {
      const note = store.get(id);
      if (note === undefined) throw new ToolError(`No note has the id ${id}; search_notes gives the ids.`);
      const answer = await call.confirm(`Delete the note "${note.title}"? This cannot be undone.`);
      if (!answer.confirmed) {
        throw new ToolError(
          answer.action === 'unavailable'
            ? 'Nothing deleted: deleting needs the user to confirm, and this client cannot ask its user. Tell the user what you meant to do.'
            : 'Nothing deleted: the user did not confirm. Do not try again unless the user asks.',
        );
      }
      store.delete(id);
      return { deleted: id };
    },
  });
}
