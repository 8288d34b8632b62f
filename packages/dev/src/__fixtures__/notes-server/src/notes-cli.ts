import { defineServerCli, type ServerCli } from '@toolshed/mcp-core';
import * as z from 'zod';

const notesServerOptions = z.strictObject({
  directory: z.string().meta({ description: 'Where the notes are', placeholder: 'DIR' }),
  maxResults: z.number().int().positive().default(20).meta({ description: 'Notes one search returns at most' }),
  apiToken: z
    .string()
    .optional()
    .meta({ description: 'A token for the sync service', flag: false, env: 'NOTES_API_TOKEN' }),
});

export const notesCli: ServerCli<z.ZodObject> = defineServerCli({
  name: 'notes-server',
  version: '1.2.3',
  summary: 'Notes you can search',
  options: notesServerOptions,
  envPrefix: 'NOTES',
});
