import { defineTool, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageContext } from './image-context.ts';
import { imageResultShape } from './image-result.ts';
import { imageSourceFields } from './image-source.ts';
import { thumbnailFields, thumbnailOperation } from './operations/thumbnail-operation.ts';
import { outputFields } from './output-format.ts';
import { deliveryNote, transformAnnotations } from './tool-annotations.ts';
import { splitArguments } from './transform-arguments.ts';
import { transformImage } from './transform-image.ts';

export function createThumbnailImageTool(context: ImageContext): Tool {
  return defineTool({
    name: 'thumbnail_image',
    title: 'Make Thumbnail',
    description:
      'Make a small preview of an image: a size×size square centred on the most salient part (fit cover, default) ' +
      'or the whole image within size×size (fit inside). WebP unless format says otherwise; metadata removed. ' +
      deliveryNote(context),
    input: z.object({ ...imageSourceFields, ...thumbnailFields, ...outputFields }),
    output: imageResultShape,
    annotations: transformAnnotations(context),
    run(args, call) {
      const { source, output } = splitArguments(args);
      return transformImage(context, call, {
        source,
        output,
        operations: () => [thumbnailOperation(args)],
        defaultFormat: 'webp',
      });
    },
  });
}
