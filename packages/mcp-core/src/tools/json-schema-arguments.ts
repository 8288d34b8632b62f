import type { OutputUnit, Validator } from '@cfworker/json-schema';
import { type FlatObjectCheck, flatObjectCheck } from './flat-object-check.ts';
import type { ArgumentCheck, ArgumentIssue, JsonObjectSchema } from './tool-input.ts';

type Draft = ConstructorParameters<typeof Validator>[1];

// Loaded with the first call of a tool whose input is a JSON Schema: a server without one never loads it.
let validatorModule: Promise<typeof import('@cfworker/json-schema')> | undefined;
const validators = new WeakMap<JsonObjectSchema, Validator>();
/** Each schema's quick check, or null where it has none. */
const quickChecks = new WeakMap<JsonObjectSchema, FlatObjectCheck | null>();

/** Errors that only say a member failed; the member's own error follows them and says how. */
const wrapperKeywords = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentSchemas',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
]);

function draftOf(schema: JsonObjectSchema): Draft {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('draft-04')) return '4';
  if (dialect.includes('draft-07')) return '7';
  if (dialect.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** `#/items/0/name` → ['items', 0, 'name'] */
function pathOf(instanceLocation: string): PropertyKey[] {
  return instanceLocation
    .split('/')
    .slice(1)
    .map((segment) => {
      const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
      return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    });
}

function issuesOf(errors: readonly OutputUnit[]): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  for (const error of errors) {
    if (wrapperKeywords.has(error.keyword)) continue;
    // A `false` schema: under additionalProperties, a property the tool does not take.
    const message = error.keyword === 'false' ? 'not accepted here' : error.error;
    issues.push({ path: pathOf(error.instanceLocation), message });
  }
  return issues;
}

function check(validator: Validator, args: unknown): ArgumentCheck {
  const result = validator.validate(args);
  if (result.valid) return { ok: true, value: args as Record<string, unknown> };
  return { ok: false, issues: issuesOf(result.errors) };
}

/**
 * Checks arguments against a tool's JSON Schema with @cfworker/json-schema,
 * which interprets the schema (no generated code, so nothing to compile at
 * start) and reports every error with where it is. A flat object schema's
 * passing calls are answered by its quick check (flat-object-check.ts).
 */
export function checkJsonSchemaArguments(
  schema: JsonObjectSchema,
  args: unknown,
): ArgumentCheck | Promise<ArgumentCheck> {
  let quickCheck = quickChecks.get(schema);
  if (quickCheck === undefined) {
    quickCheck = flatObjectCheck(schema) ?? null;
    quickChecks.set(schema, quickCheck);
  }
  // The validator is loaded (and built) only for a call the quick check cannot pass.
  if (quickCheck?.(args) === true) return { ok: true, value: args as Record<string, unknown> };
  const validator = validators.get(schema);
  if (validator !== undefined) return check(validator, args);
  validatorModule ??= import('@cfworker/json-schema');
  return validatorModule.then(({ Validator }) => {
    const built = validators.get(schema) ?? new Validator(schema as never, draftOf(schema), false);
    validators.set(schema, built);
    return check(built, args);
  });
}
