import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { thumbnailFields, thumbnailOperation } from './operations/thumbnail-operation.ts';

export function createThumbnailImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'thumbnail_image',
    title: 'Make Thumbnail',
    description:
      'Make a small preview of an image: a size×size square centred on the most salient part (fit cover, default) ' +
      'or the whole image within size×size (fit inside). WebP unless format says otherwise; metadata removed.',
    fields: thumbnailFields,
    keepMetadata: false,
    defaultFormat: 'webp',
    operations: (args) => [thumbnailOperation(args)],
  });
}
