import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** Revisions whose official JSON Schema ships in this package (spec/<version>/schema.json). */
export const specSchemaVersions: readonly string[] = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

const resultDefinitions: Record<string, string> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/** The tasks extension's results (2026 era), in its own schema. */
const taskResultDefinitions: Record<string, string> = {
  'tasks/get': 'GetTaskResult',
  'tasks/update': 'UpdateTaskResult',
  'tasks/cancel': 'CancelTaskResult',
};

/** 2026-07-28: the errors whose `data` the schema defines. */
const errorDefinitions: Record<number, string> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

const messageDefinitions: Record<string, string> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'elicitation/create': 'ElicitRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'roots/list': 'ListRootsRequest',
  ping: 'PingRequest',
};

export interface SpecValidator {
  readonly version: string;
  /** Errors of one message the server sent; `answering` is the method of the request it responds to. */
  validateServerMessage(message: unknown, answering?: string): string[];
}

const cache = new Map<string, SpecValidator>();

// spec/ sits at the package root: one level above the bundled dist/testing.js, two above the source.
const specRoot = [new URL('../spec/', import.meta.url), new URL('../../spec/', import.meta.url)].find((url) =>
  existsSync(new URL('2025-11-25/schema.json', url)),
);

function formatErrors(where: string, validate: ValidateFunction): string[] {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((error) => `${where}${error.instancePath} ${error.message ?? ''}`.trim());
}

/**
 * Validates what a server emits against the official JSON Schema of one
 * protocol revision: the JSON-RPC envelope, and the result, notification or
 * request definition the method calls for.
 */
export function createSpecValidator(version: string): SpecValidator {
  const cached = cache.get(version);
  if (cached !== undefined) return cached;
  if (!specSchemaVersions.includes(version)) {
    throw new Error(`No official schema for ${version}; have ${specSchemaVersions.join(', ')}`);
  }
  if (specRoot === undefined) throw new Error('The spec/ folder of @toolshed/mcp-core is missing');
  const schema = JSON.parse(readFileSync(new URL(`${version}/schema.json`, specRoot), 'utf8'));
  const modern = '$defs' in schema;
  const ajv = modern
    ? new Ajv2020({ strict: false, validateFormats: false, allErrors: true })
    : new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(schema, version);
  const pointer = modern ? '$defs' : 'definitions';
  const definition = (name: string): ValidateFunction => {
    const validate = ajv.getSchema(`${version}#/${pointer}/${name}`);
    if (validate === undefined) throw new Error(`${version} schema has no ${name}`);
    return validate;
  };
  // The tasks extension's own schema: only the 2026 era has extensions.
  let tasksSchemaAdded = false;
  const taskDefinition = (name: string): ValidateFunction => {
    if (!tasksSchemaAdded) {
      ajv.addSchema(JSON.parse(readFileSync(new URL('extensions/tasks/schema.json', specRoot), 'utf8')), 'tasks');
      tasksSchemaAdded = true;
    }
    const validate = ajv.getSchema(`tasks#/$defs/${name}`);
    if (validate === undefined) throw new Error(`the tasks extension schema has no ${name}`);
    return validate;
  };
  const resultEnvelope = definition(modern ? 'JSONRPCResultResponse' : 'JSONRPCResponse');
  const errorEnvelope = definition(modern ? 'JSONRPCErrorResponse' : 'JSONRPCError');
  const requestEnvelope = definition('JSONRPCRequest');
  const notificationEnvelope = definition('JSONRPCNotification');

  function validateOne(message: Record<string, unknown>, answering: string | undefined): string[] {
    if ('error' in message) {
      // JSON-RPC 2.0 §5 answers an unreadable request with id null; MCP's schemas
      // type ids as string|integer. Check the rest of the envelope in that case.
      const checked = message.id === null ? { ...message, id: modern ? undefined : 0 } : message;
      if (checked.id === undefined) delete checked.id;
      if (!errorEnvelope(checked)) return formatErrors('error response', errorEnvelope);
      const code = (message.error as { code?: unknown } | undefined)?.code;
      const specific = modern && typeof code === 'number' ? errorDefinitions[code] : undefined;
      if (specific === undefined) return [];
      const validate = definition(specific);
      return validate(checked) ? [] : formatErrors(`${specific}`, validate);
    }
    if ('result' in message) {
      if (!resultEnvelope(message)) return formatErrors('response', resultEnvelope);
      const inputRequired = (message.result as { resultType?: unknown }).resultType === 'input_required';
      if (modern && inputRequired) {
        const validate = definition('InputRequiredResult');
        return validate(message.result)
          ? []
          : formatErrors(`${answering ?? 'request'} input_required result`, validate);
      }
      const isTask = (message.result as { resultType?: unknown }).resultType === 'task';
      const taskName = !modern
        ? undefined
        : answering === 'tools/call' && isTask
          ? 'CreateTaskResult'
          : answering === undefined
            ? undefined
            : taskResultDefinitions[answering];
      if (taskName !== undefined) {
        const validate = taskDefinition(taskName);
        return validate(message.result) ? [] : formatErrors(`${answering} result`, validate);
      }
      const name = answering === undefined ? undefined : resultDefinitions[answering];
      if (name === undefined) return [];
      const validate = definition(name);
      return validate(message.result) ? [] : formatErrors(`${answering} result`, validate);
    }
    const method = String((message as { method?: unknown }).method);
    const envelope = 'id' in message ? requestEnvelope : notificationEnvelope;
    if (!envelope(message)) return formatErrors('message', envelope);
    if (modern && method === 'notifications/tasks') {
      const validate = taskDefinition('TaskStatusNotification');
      return validate(message) ? [] : formatErrors(method, validate);
    }
    const name = messageDefinitions[method];
    if (name === undefined) return [`${method}: not a method this validator knows`];
    const validate = definition(name);
    return validate(message) ? [] : formatErrors(method, validate);
  }

  const validator: SpecValidator = {
    version,
    validateServerMessage(message, answering) {
      if (Array.isArray(message)) return message.flatMap((item) => validateOne(item, undefined));
      if (typeof message !== 'object' || message === null) return ['message is not an object'];
      return validateOne(message as Record<string, unknown>, answering);
    },
  };
  cache.set(version, validator);
  return validator;
}
