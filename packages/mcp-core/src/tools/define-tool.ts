import type * as z from 'zod';
import { checkName } from '../catalog/check-name.ts';
import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type { Icon, ToolAnnotations, ToolDescriptor } from '../protocol/mcp-types.ts';
import type { ToolResult } from '../results/tool-result.ts';
import { onFirstUse } from './on-first-use.ts';
import { isStandardSchema } from './standard-schema.ts';
import { isToolInputSchema, type ToolArguments, type ToolInputSchema, toolInputJsonSchema } from './tool-input.ts';
import { isZodObject, toToolJsonSchema } from './tool-json-schema.ts';

/** What `run` may return: structured data when the tool has an output schema, else a result or plain text. */
export type ToolRunResult<Output extends z.ZodObject | undefined> = Output extends z.ZodObject
  ? z.input<Output> | ToolResult
  : ToolResult | string;

/** A schema, or a function that builds it on first use (see `jsonSchemas`). */
export type ToolSchema<Schema extends ToolInputSchema> = Schema | (() => Schema);

/**
 * The JSON Schemas clients see for a tool, derived ahead of time from its zod
 * schemas (see `toolJsonSchemaModule` in `@toolshed/mcp-core/testing`).
 */
export interface ToolJsonSchemas {
  /** Left out when `input` is given as a schema (it depends on the server's options, say). */
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
}

export interface ToolDefinitionInput<Input extends ToolInputSchema, Output extends z.ZodObject | undefined> {
  /** Unique within a server; `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** Human-readable name for client interfaces. */
  title?: string;
  /** For the model: what the tool does, when to use it, units of its inputs and outputs. */
  description: string;
  /**
   * Validates every call: a zod object schema, any Standard Schema (valibot,
   * ArkType, …) or a JSON Schema with `type: "object"`; a function is called
   * once, when the schema is first needed.
   */
  input: ToolSchema<Input>;
  /**
   * The input JSON Schema shown to clients, verbatim, when the one derived
   * from `input` is not what you need (a 2020-12 schema with `$defs`, say).
   * `input` still validates every call. Must be an object schema.
   */
  advertisedInputSchema?: Record<string, unknown>;
  /** Checks what `run` returns; a function is called once, after the first run that returns data. */
  output?: ToolSchema<Exclude<Output, undefined>>;
  /**
   * The JSON Schemas derived from `input` and `output`, generated ahead of
   * time for each given as a function. With them, a tool builds those zod
   * schemas at its first call, not at definition: a server starts and
   * answers `tools/list` without building them. A test keeps them equal to
   * what the schemas derive (`toolJsonSchemaModule`).
   */
  jsonSchemas?: ToolJsonSchemas | undefined;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  meta?: Record<string, unknown>;
  /**
   * Whether a call may become a task (2026 era, clients that declare the
   * tasks extension): `never` (default), `optional` (the server decides per
   * call; other clients get an ordinary answer) or `required` (clients
   * without the extension get -32021).
   */
  task?: TaskSupport;
  /**
   * With `task`: a call still running this long, and asking the client
   * nothing, becomes a task. Default 2000 ms for `optional`, 0 for
   * `required`. The tool may also make it one sooner with `context.continueAsTask()`.
   */
  taskAfterMs?: number;
  run(args: ToolArguments<Input>, context: CallContext): ToolRunResult<Output> | Promise<ToolRunResult<Output>>;
}

/** Whether a tool's calls may become tasks. */
export type TaskSupport = 'never' | 'optional' | 'required';

/** A validated tool, ready to register on a server. */
export interface Tool {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  /** Absent: `never`. */
  readonly task?: { readonly support: Exclude<TaskSupport, 'never'>; readonly afterMs: number };
  /** Built on first read when the definition gave a function. */
  readonly input: ToolInputSchema;
  /** Built on first read when the definition gave a function. */
  readonly output: z.ZodObject | undefined;
  run(args: unknown, context: CallContext): unknown;
}

/** The schemas of tools defined with functions: what a generated JSON Schema module is made from. */
const lazyDefinitions = new WeakMap<
  Tool,
  { input: (() => ToolInputSchema) | undefined; output: (() => z.ZodObject) | undefined }
>();

/**
 * The zod schemas a tool's definition gave as functions, built (each side
 * undefined when given as a schema); undefined for a tool that gave none.
 */
export function lazyToolSchemas(
  tool: Tool,
): { input: ToolInputSchema | undefined; output: z.ZodObject | undefined } | undefined {
  const lazy = lazyDefinitions.get(tool);
  return lazy === undefined ? undefined : { input: lazy.input?.(), output: lazy.output?.() };
}

/** A schema given as a function, called once; what it returns is checked to be a schema of the kind asked. */
function builtOnce<Schema>(
  schema: () => unknown,
  isSchema: (value: unknown) => value is Schema,
  refusal: string,
): () => Schema {
  return onFirstUse((): Schema => {
    const value = schema();
    if (!isSchema(value)) throw new LocalError('tool_definition_invalid', refusal);
    return value;
  });
}

/** A builder function, not a schema: ArkType's schemas are functions too, and carry `~standard`. */
function isBuilder(value: unknown): value is () => unknown {
  return typeof value === 'function' && !isStandardSchema(value);
}

function checkJsonSchemas(jsonSchemas: ToolJsonSchemas, name: string, hasOutput: boolean): void {
  const { input, output } = jsonSchemas;
  const fits = (schema: Record<string, unknown> | undefined) => schema === undefined || schema.type === 'object';
  if (!fits(input) || !fits(output) || (output !== undefined && !hasOutput)) {
    throw new LocalError(
      'tool_definition_invalid',
      `Tool "${name}" jsonSchemas must hold object schemas, and one for output only when the tool has an output`,
    );
  }
}

function taskOf(support: TaskSupport | undefined, afterMs: number | undefined, name: string): Tool['task'] | undefined {
  if (support === undefined || support === 'never') {
    if (afterMs !== undefined) {
      throw new LocalError('tool_definition_invalid', `Tool "${name}" has taskAfterMs but no task support`);
    }
    return undefined;
  }
  if (support !== 'optional' && support !== 'required') {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" task must be "never", "optional" or "required"`);
  }
  const after = afterMs ?? (support === 'optional' ? 2_000 : 0);
  if (!(after >= 0)) {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" taskAfterMs must be 0 or more milliseconds`);
  }
  return Object.freeze({ support, afterMs: after });
}

/**
 * Defines a tool from zod schemas: the JSON Schema clients see, the type of
 * `run`'s arguments and the runtime validation all come from them. Mistakes
 * that clients would reject later fail here, at definition time. Given as
 * functions, with `jsonSchemas` generated from them, the schemas are built at
 * the tool's first call instead, and the generating test checks them.
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
export function defineTool<Input extends ToolInputSchema, Output extends z.ZodObject | undefined = undefined>(
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
  const where = `Tool "${name}"`;
  const inputRefusal = `${where} input must be a zod object schema (z.object({...})), another Standard Schema, or a JSON Schema with type "object"`;
  const lazyInput = isBuilder(definition.input)
    ? builtOnce(definition.input, isToolInputSchema, inputRefusal)
    : undefined;
  if (lazyInput === undefined && !isToolInputSchema(definition.input)) {
    throw new LocalError('tool_definition_invalid', inputRefusal);
  }
  const lazyOutput = isBuilder(definition.output)
    ? builtOnce(definition.output, isZodObject, `${where} output must be a zod object schema (z.object({...}))`)
    : undefined;
  const readInput = lazyInput ?? (() => definition.input as ToolInputSchema);
  const readOutput = lazyOutput ?? (() => definition.output as z.ZodObject | undefined);
  const { jsonSchemas } = definition;
  if (jsonSchemas !== undefined) checkJsonSchemas(jsonSchemas, name, definition.output !== undefined);
  const advertised = definition.advertisedInputSchema;
  if (advertised !== undefined && advertised.type !== 'object') {
    throw new LocalError('tool_definition_invalid', `Tool "${name}" advertisedInputSchema must have type "object"`);
  }
  let inputSchema: Record<string, unknown>;
  if (advertised !== undefined) inputSchema = structuredClone(advertised);
  else inputSchema = jsonSchemas?.input ?? toolInputJsonSchema(readInput(), `${where} input`);
  const descriptor: ToolDescriptor = { name, description: definition.description, inputSchema };
  if (definition.title !== undefined) descriptor.title = definition.title;
  if (definition.output !== undefined) {
    descriptor.outputSchema = jsonSchemas?.output ?? toToolJsonSchema(readOutput(), 'output', `${where} output`);
  }
  if (definition.annotations !== undefined) descriptor.annotations = { ...definition.annotations };
  if (definition.icons !== undefined) descriptor.icons = definition.icons;
  if (definition.meta !== undefined) descriptor._meta = definition.meta;
  const task = taskOf(definition.task, definition.taskAfterMs, name);
  const tool: Tool = Object.freeze({
    name,
    descriptor: Object.freeze(descriptor),
    ...(task === undefined ? {} : { task }),
    get input() {
      return readInput();
    },
    get output() {
      return readOutput();
    },
    run: definition.run as Tool['run'],
  });
  if (lazyInput !== undefined || lazyOutput !== undefined) {
    lazyDefinitions.set(tool, { input: lazyInput, output: lazyOutput });
  }
  return tool;
}
