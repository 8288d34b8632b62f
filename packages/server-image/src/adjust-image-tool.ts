import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { adjustFields, adjustOperation } from './operations/adjust-operation.ts';

export function createAdjustImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'adjust_image',
    title: 'Adjust Image',
    description:
      'Change how an image looks: grayscale, blur, sharpen, normalise (stretch contrast), brightness, saturation, ' +
      `hue and negate, any together.`,
    fields: adjustFields,
    operations: (args) => [adjustOperation(args)],
  });
}
