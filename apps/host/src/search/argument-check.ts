import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

// ajv (some ninety CommonJS modules) is required on the first check, not imported: most hosts never check an
// argument, and importing it cost every start about a tenth of its time.
const { createRequire } = process.getBuiltinModule('node:module');
const requireAjv = createRequire(import.meta.url);

// Formats are the upstream's to enforce; the host checks shape, so a model learns its mistakes before a call is made.
const settings = { strict: false, allErrors: true, validateFormats: false, logger: false } as const;
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;
/** Compiled once per schema object: an upstream's descriptors are kept until its list changes. */
const compiled = new WeakMap<object, ValidateFunction | Error>();

/** MCP tool schemas are JSON Schema 2020-12 unless they name an older draft. */
function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[67]/.test(dialect)) {
    draft07 ??= new (requireAjv('ajv') as typeof import('ajv')).Ajv(settings);
    return draft07;
  }
  draft2020 ??= new (requireAjv('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(settings);
  return draft2020;
}

function compile(schema: Record<string, unknown>): ValidateFunction | Error {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = validatorFor(schema).compile(schema);
    } catch (error) {
      validate = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'arguments' : `arguments${error.instancePath.replaceAll('/', '.')}`;
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String(error.params.additionalProperty)})`
      : error.keyword === 'enum'
        ? ` (${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')})`
        : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}

/**
 * What is wrong with a call's arguments by the tool's own input schema, as
 * one sentence; undefined when they fit, or when the schema is one the
 * checker cannot read, in which case the upstream judges them as it does on
 * a direct call.
 */
export function argumentProblems(schema: Record<string, unknown>, args: Record<string, unknown>): string | undefined {
  const validate = compile(schema);
  if (validate instanceof Error || validate(args)) return undefined;
  const errors = validate.errors ?? [];
  const shown = errors.slice(0, 5).map(describe);
  if (errors.length > shown.length) shown.push(`${errors.length - shown.length} more`);
  return shown.join('; ');
}
