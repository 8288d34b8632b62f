import type * as z from 'zod';
import { checkName } from '../catalog/check-name.ts';
import { definedFields } from '../catalog/defined-fields.ts';
import type { Completer } from '../completion/completer.ts';
import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type { GetPromptResult, Icon, PromptArgument, PromptDescriptor, PromptMessage } from '../protocol/mcp-types.ts';
import { isZodObject } from '../tools/tool-json-schema.ts';

/** What `get` may return: the messages, one user message as text, or a full result. */
export type PromptGetValue = string | PromptMessage[] | GetPromptResult;

export interface PromptDefinitionInput<Args extends z.ZodObject> {
  /** Unique within a server; `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  title?: string;
  /** What the prompt is for, shown to the user choosing it. */
  description?: string;
  /** The arguments, all strings on the wire: a zod object of string (or enum) fields. */
  arguments?: Args;
  /** Suggestions for each argument, offered through completion/complete. */
  complete?: Record<string, Completer>;
  icons?: Icon[];
  meta?: Record<string, unknown>;
  get(args: z.output<Args>, context: CallContext): PromptGetValue | Promise<PromptGetValue>;
}

/** A validated prompt, ready to register on a server. */
export interface Prompt {
  readonly name: string;
  readonly descriptor: PromptDescriptor;
  /** Undefined for a prompt that takes no arguments. */
  readonly arguments: z.ZodObject | undefined;
  readonly complete: Readonly<Record<string, Completer>>;
  get(args: unknown, context: CallContext): PromptGetValue | Promise<PromptGetValue>;
}

function describeArguments(name: string, schema: z.ZodObject): PromptArgument[] {
  const jsonSchema = schema.toJSONSchema({ target: 'draft-2020-12', io: 'input' }) as {
    properties?: Record<string, { type?: unknown; enum?: unknown[]; description?: string; title?: string }>;
    required?: string[];
  };
  const required = new Set(jsonSchema.required ?? []);
  return Object.entries(jsonSchema.properties ?? {}).map(([key, property]) => {
    const isString = property.type === 'string' || property.enum?.every((value) => typeof value === 'string');
    if (!isString) {
      throw new LocalError('tool_definition_invalid', `Prompt "${name}" argument "${key}" must be a string or enum`);
    }
    const argument: PromptArgument = { name: key, required: required.has(key) };
    if (property.title !== undefined) argument.title = property.title;
    if (property.description !== undefined) argument.description = property.description;
    return argument;
  });
}

/**
 * Defines a prompt: a message template the user picks in the client, with
 * string arguments validated by zod before `get` runs.
 *
 * @example
 * const review = definePrompt({
 *   name: 'review_query', description: 'Review a SQL query for correctness and speed',
 *   arguments: z.object({ sql: z.string().describe('The query to review') }),
 *   get: ({ sql }) => `Review this query and suggest indexes:\n${sql}`,
 * });
 */
export function definePrompt<Args extends z.ZodObject = z.ZodObject<Record<string, never>>>(
  definition: PromptDefinitionInput<Args>,
): Prompt {
  const { name } = definition;
  checkName('Prompt', name);
  if (typeof definition.get !== 'function') {
    throw new LocalError('tool_definition_invalid', `Prompt "${name}" needs a get function`);
  }
  const args = definition.arguments;
  if (args !== undefined && !isZodObject(args)) {
    throw new LocalError('tool_definition_invalid', `Prompt "${name}" arguments must be a zod object schema`);
  }
  const argumentList = args === undefined ? [] : describeArguments(name, args);
  const complete = { ...definition.complete };
  for (const key of Object.keys(complete)) {
    if (!argumentList.some((argument) => argument.name === key)) {
      throw new LocalError('tool_definition_invalid', `Prompt "${name}" completes "${key}", which is not an argument`);
    }
  }
  const { title, description, icons, meta } = definition;
  const descriptor: PromptDescriptor = {
    name,
    ...definedFields({ title, description, icons, _meta: meta }),
  };
  if (argumentList.length > 0) descriptor.arguments = argumentList;
  return Object.freeze({
    name,
    descriptor: Object.freeze(descriptor),
    arguments: args,
    complete: Object.freeze(complete),
    get: definition.get as Prompt['get'],
  });
}
