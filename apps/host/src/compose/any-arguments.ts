import type { StandardSchemaV1 } from '@toolshed/mcp-core';

/**
 * The input of a tool that stands for an upstream's: any object, taken as
 * it is, for the upstream checks its own arguments. A Standard Schema of our
 * own rather than `z.looseObject({})`, which copies every argument into a
 * new object on every call to find nothing to check.
 */
export const anyArguments: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'toolshed',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'Expected an object of named arguments' }] },
  },
};
