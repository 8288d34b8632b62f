import type * as z from 'zod';
import { checkName } from '../catalog/check-name.ts';
import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type { Icon, ToolAnnotations, ToolDescriptor } from '../protocol/mcp-types.ts';
import type { ToolResult } from '../results/tool-result.ts';
import { toToolJsonSchema } from './tool-json-schema.ts';

/** What `run` may return: structured data when the tool has an output schema, else a result or plain text. */
export type ToolRunResult<Output extends z.ZodObject | undefined> = Output extends z.ZodObject
  ? z.input<Output> | ToolResult
  : ToolResult | string;

export interface ToolDefinitionInput<Input extends z.ZodObject, Output extends z.ZodObject | undefined> {
  /** Unique within a server; `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** Human-readable name for client interfaces. */
  title?: string;
  /** For the model: what the tool does, when to use it, units of its inputs and outputs. */
  description: string;
  input: Input;
  /**
   * The input JSON Schema shown to clients, verbatim, when the one derived
   * from `input` is not what you need (a 2020-12 schema with `$defs`, say).
   * `input` still validates every call. Must be an object schema.
   */
  advertisedInputSchema?: Record<string, unknown>;
  output?: Output;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  meta?: Record<string, unknown>;
  run(args: z.output<Input>, context: CallContext): ToolRunResult<Output> | Promise<ToolRunResult<Output>>;
}

/** A validated tool, ready to register on a server. */
export interface Tool {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  readonly input: z.ZodObject;
  readonly output: z.ZodObject | undefined;
  run(args: unknown, context: CallContext): unknown;
}

/**
 * Defines a tool from zod schemas: the JSON Schema clients see, the type of
 * `run`'s arguments and the runtime validation all come from them. Mistakes
 * that clients would reject later fail here, at definition time.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   title: 'Add numbers',
 *   description: 'Adds two numbers and returns the sum.',
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   output: z.object({ sum: z.number() }),
 *   annotations: { readOnlyHint: true, openWorldHint: false },
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject | undefined = undefined>(
  definition: ToolDefinitionInput<Input, Output>,
): Tool {
  const { name } = definition;
  checkName('Tool', name);
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" needs a description written for the model`);
  }
  if (typeof definition.run !== 'function') {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" needs a run function`);
  }
  const derived = toToolJsonSchema(definition.input, 'input', `Tool "${name}" input`);
  const advertised = definition.advertisedInputSchema;
  if (advertised !== undefined && advertised.type !== 'object') {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" advertisedInputSchema must have type "object"`);
  }
  const descriptor: ToolDescriptor = {
    name,
    description: definition.description,
    inputSchema: advertised === undefined ? derived : structuredClone(advertised),
  };
  if (definition.title !== undefined) descriptor.title = definition.title;
  if (definition.output !== undefined) {
    descriptor.outputSchema = toToolJsonSchema(definition.output, 'output', `Tool "${name}" output`);
  }
  if (definition.annotations !== undefined) descriptor.annotations = { ...definition.annotations };
  if (definition.icons !== undefined) descriptor.icons = definition.icons;
  if (definition.meta !== undefined) descriptor._meta = definition.meta;
  const run = definition.run as Tool['run'];
  return Object.freeze({
    name,
    descriptor: Object.freeze(descriptor),
    input: definition.input,
    output: definition.output,
    run,
  });
}
