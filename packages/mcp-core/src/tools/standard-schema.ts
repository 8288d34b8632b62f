/**
 * The Standard Schema interface (https://standardschema.dev, version 1), and
 * the Standard JSON Schema converter beside it: what valibot, ArkType, zod and
 * other validation libraries implement, so a tool can take any of them. The
 * types are copied from `@standard-schema/spec` 1.1.0 (MIT, Copyright (c) 2024
 * Colin McDonnell), trimmed to what a tool's input uses, as the spec invites:
 * there is nothing to load at run time.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Standard JSON Schema: the library derives the JSON Schema of what it validates. */
  readonly jsonSchema?:
    | { readonly input: (options: { readonly target: string }) => Record<string, unknown> }
    | undefined;
}

export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardSchemaIssue[] };

export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The output type of a Standard Schema. */
export type StandardSchemaOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];

/** Whether a value implements Standard Schema version 1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { '~standard'?: Partial<StandardSchemaProps> } | null | undefined)?.['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}
