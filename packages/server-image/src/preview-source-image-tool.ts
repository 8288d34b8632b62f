import { defineTool, type Tool, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { imageResultShape } from './image-result.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { imageSourceFields } from './image-source.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { transformImage } from './transform-image.ts';

/**
 * `preview_source_image`: the "before" of the process_image view — the
 * input, read exactly as process_image reads it (the same sources, guards,
 * pixel and byte caps, time limit and turn at the work limiter), fitted to
 * the preview edge and budget, and never written anywhere. App-only: a model
 * has image_info and process_image for this.
 */
export function createPreviewSourceImageTool(context: ImageServerContext): Tool {
  return defineTool({
    name: 'preview_source_image',
    title: 'Preview an input image',
    description: 'The input image of a process_image call, downscaled to the preview size, for its view.',
    input: () => z.object({ ...imageSourceFields({ described: false }) }),
    output: imageResultShape,
    jsonSchemas: toolJsonSchemas.preview_source_image,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    meta: toolViewMeta({ visibility: ['app'] }),
    run: (args, call) =>
      transformImage(context, call, {
        source: { path: args.path, url: args.url, data: args.data },
        output: {},
        operations: () => [],
        previewOnly: true,
      }),
  });
}
