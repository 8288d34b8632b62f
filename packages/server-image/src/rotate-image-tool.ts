import type { Tool } from '@toolshed/mcp-core';
import { defineTransformTool } from './define-transform-tool.ts';
import type { ImageContext } from './image-context.ts';
import { rotateFields, rotateOperation } from './operations/rotate-operation.ts';

export function createRotateImageTool(context: ImageContext): Tool {
  return defineTransformTool(context, {
    name: 'rotate_image',
    title: 'Rotate or Flip Image',
    description:
      'Rotate an image clockwise by angle degrees and/or mirror it: flip (top to bottom) or flop (left to right). ' +
      'EXIF orientation is already applied to every input, so a sideways phone photo does not need this.',
    fields: rotateFields,
    operations: (args) => [rotateOperation(args)],
  });
}
