import type * as z from 'zod';
import { LocalError } from '../errors/local-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { ConfirmOutcome, ElicitOutcome, ElicitRequest } from './call-context.ts';
import type { ElicitationUnavailablePolicy } from './server-core.ts';

/**
 * How an era asks the user: the 2025 session sends elicitation/create; the
 * 2026 era ends the attempt with input_required, the question under `key`.
 */
export type AskUser = (
  message: string,
  requestedSchema: Record<string, unknown>,
  key?: string,
) => Promise<ElicitOutcome<unknown>>;

const primitiveTypes = new Set(['string', 'number', 'integer', 'boolean']);
/** The yes/no form `confirm` asks: plain JSON Schema, so asking needs no schema library. */
function confirmForm(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { confirmed: { type: 'boolean', description: 'Check to allow this action' } },
    required: ['confirmed'],
  };
}

interface FieldSchema {
  type?: unknown;
  enum?: unknown;
  oneOf?: unknown;
  anyOf?: unknown;
  items?: FieldSchema;
}

/** A field a client can render: a primitive, an enum, or (2025-11-25) an array of enum choices. */
function isFormField(field: FieldSchema): boolean {
  if (primitiveTypes.has(String(field.type)) || Array.isArray(field.enum)) return true;
  const items = field.items;
  return field.type === 'array' && items !== undefined && (Array.isArray(items.enum) || Array.isArray(items.anyOf));
}

/** Elicitation forms are flat: one level of strings, numbers, booleans and enums. */
function toRequestedSchema(schema: z.ZodObject, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const jsonSchema = (given ?? schema.toJSONSchema({ target: 'draft-2020-12', io: 'input' })) as {
    properties?: Record<string, FieldSchema>;
    required?: string[];
  };
  const properties = jsonSchema.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    if (!isFormField(property)) {
      throw new LocalError(
        'tool_definition_invalid',
        `Elicitation field "${key}" must be a string, number, integer, boolean, enum or array of enum choices; forms cannot nest`,
      );
    }
  }
  const requested: Record<string, unknown> = { type: 'object', properties };
  if (jsonSchema.required !== undefined) requested.required = jsonSchema.required;
  return requested;
}

function refuse(reason: string): never {
  throw new ToolError(
    `This action needs an answer from the user, but ${reason}. Tell the user what you intended to do, and ask them to do it themselves or to use a client that supports elicitation.`,
  );
}

/** Puts the question to the user; when the client cannot ask, `fail` ends the call with an error the model sees. */
async function askForm(
  ask: AskUser,
  policy: ElicitationUnavailablePolicy,
  message: string,
  requestedSchema: Record<string, unknown>,
  key?: string,
): Promise<ElicitOutcome<unknown>> {
  const outcome = await ask(message, requestedSchema, key);
  if (outcome.action === 'unavailable' && policy === 'fail') refuse(outcome.reason);
  return outcome;
}

/**
 * A context's `elicit`, from an era's way of asking. The answer is validated
 * against the form; when the client cannot ask, the server's policy decides:
 * `fail` ends the call with an error the model sees, `decline` hands the tool
 * an `unavailable` outcome. Never a silent yes.
 */
export async function elicitForm<Shape extends z.ZodObject>(
  ask: AskUser,
  policy: ElicitationUnavailablePolicy,
  request: ElicitRequest<Shape>,
): Promise<ElicitOutcome<z.output<Shape>>> {
  const requested = toRequestedSchema(request.schema, request.requestedSchema);
  const outcome = await askForm(ask, policy, request.message, requested, request.key);
  if (outcome.action !== 'accept') return outcome;
  const parsed = request.schema.safeParse(outcome.content ?? {});
  if (!parsed.success) {
    throw new ToolError('The answer the client returned does not match the form that was asked; no action was taken.');
  }
  return { action: 'accept', content: parsed.data };
}

/**
 * A context's `confirm`: a yes/no form where only an explicit yes confirms.
 * An accepted answer that does not fit the question (`{"confirm": true}`,
 * `{"confirmed": "yes"}`) is an answer that is not a yes — `accept`, not
 * confirmed — rather than an error, so the caller can tell it from a client
 * that could not ask.
 */
export async function confirmAction(
  ask: AskUser,
  policy: ElicitationUnavailablePolicy,
  message: string,
): Promise<ConfirmOutcome> {
  const outcome = await askForm(ask, policy, message, confirmForm());
  const answer = outcome.action === 'accept' && isPlainObject(outcome.content) ? outcome.content : undefined;
  return { confirmed: answer?.confirmed === true, action: outcome.action };
}
