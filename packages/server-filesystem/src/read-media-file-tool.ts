import { fstatSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type ContentBlock, defineTool, type Tool, ToolError, toolResult } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type FilesystemServerContext, guardForCall, pathArgument } from './filesystem-server-context.ts';
import { mediaTypeOf } from './media-types.ts';
import { toolArguments } from './tool-arguments.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

export function createReadMediaFileTool(context: FilesystemServerContext): Tool {
  return defineTool({
    name: 'read_media_file',
    title: 'Read Media File',
    description: `Read an image, audio or other file (up to ${context.limits.maxMediaBytes} bytes) as base64 content with its MIME type.`,
    input: () => toolArguments({ path: pathArgument() }),
    output: () =>
      z.object({
        content: z.array(
          z.union([
            z.object({ type: z.enum(['image', 'audio']), data: z.string(), mimeType: z.string() }),
            z.object({
              type: z.literal('resource'),
              resource: z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
            }),
          ]),
        ),
      }),
    jsonSchemas: toolJsonSchemas.read_media_file,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run({ path }, call) {
      const guard = await guardForCall(context, call);
      const target = await guard.resolve(path);
      const handle = await guard.openFile(target);
      let data: string;
      try {
        const { size } = fstatSync(handle.fd);
        if (size > context.limits.maxMediaBytes) {
          throw new ToolError(
            `"${path}" is ${size} bytes; media files over ${context.limits.maxMediaBytes} bytes are not returned.`,
          );
        }
        data = (await handle.readFile()).toString('base64');
      } finally {
        await handle.close();
      }
      const mimeType = mediaTypeOf(target.path);
      const block = (
        mimeType.startsWith('image/')
          ? { type: 'image', data, mimeType }
          : mimeType.startsWith('audio/')
            ? { type: 'audio', data, mimeType }
            : { type: 'resource', resource: { uri: pathToFileURL(target.path).href, mimeType, blob: data } }
      ) as ContentBlock;
      // The reference's shape: the block itself, mirrored in structuredContent.
      const result = toolResult(block);
      result.structuredContent = { content: [block] };
      return result;
    },
  });
}
