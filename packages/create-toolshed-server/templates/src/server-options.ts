import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';

// The shape is spelt out as a type because exported schemas need declared types under isolatedDeclarations.
type ServerOptionsShape = {
  maxResults: z.ZodDefault<z.ZodNumber>;
};

/**
 * The server's options: the bin's flags, their environment twins, --help, the README's options table,
 * server.json and the .mcpb settings all come from this one schema. Add an option here, then run
 * `__RUN__ run docs` to rewrite the table and server.json.
 */
export const serverOptions: z.ZodObject<ServerOptionsShape, z.core.$strict> = z.strictObject({
  maxResults: limitOption(20, 'Notes one search returns at most'),
});

export type ServerOptions = z.input<typeof serverOptions>;
export type ParsedServerOptions = z.output<typeof serverOptions>;
