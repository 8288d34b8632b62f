import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { NoteStore } from './note-store.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/** A read-only tool: it changes nothing, so it asks nothing. */
export function createSearchNotesTool(store: NoteStore, maxResults: number): Tool {
  return defineTool({
    name: 'search_notes',
    title: 'Search notes',
    description: 'Find notes whose title or text holds every word of the query; best for short queries.',
    input: () => z.object({ query: z.string().trim().min(1).max(200) }),
    output: () =>
      z.object({
        notes: z.array(z.object({ id: z.string(), title: z.string(), text: z.string() })),
        truncated: z.boolean().describe('More notes matched than one call returns'),
      }),
    jsonSchemas: toolJsonSchemas.search_notes,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: ({ query }) => {
      const notes = store.search(query, maxResults + 1);
      return { notes: notes.slice(0, maxResults), truncated: notes.length > maxResults };
    },
  });
}
