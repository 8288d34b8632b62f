import type * as z from 'zod';

/**
 * What an option of a server says about itself beyond its type, attached
 * with zod's `.meta()`. The bin's flags, their environment twins, `--help`
 * and the README's options table are all read from it.
 *
 * @example
 * contact: z.string().optional().meta({ description: 'Who the upstreams can reach', placeholder: 'EMAIL|URL' }),
 */
export interface OptionMeta {
  /** One line: what the option does. Shown in --help and the README. */
  description?: string;
  /**
   * The flag, without `--`. Default: the key in kebab case, after its group's
   * prefix. `false`: no flag — a secret, which comes from its environment
   * variable alone, or a value only a library caller can give (a callback).
   */
  flag?: string | false;
  /** The environment twin. Default: the bin's prefix and the flag in upper snake case. `false`: none. */
  env?: string | false;
  /** Shown after the flag in --help, as in `--db PATH`. */
  placeholder?: string;
  /** On a group (a nested object): what its flags start with. Default: the group's key; `''` for none. */
  flagPrefix?: string;
}

type Definition = { innerType?: z.ZodType; type?: string; defaultValue?: unknown };

function definitionOf(schema: z.ZodType): Definition {
  return (schema as unknown as { _zod: { def: Definition } })._zod.def;
}

/** An option's schema seen through its optional, default and readonly wrappers, with what they said. */
export interface UnwrappedOption {
  /** The schema inside the wrappers. */
  inner: z.ZodType;
  /** Every `.meta()` from the outermost wrapper in, later ones overriding. */
  meta: OptionMeta;
  /** The `.default()` value, when there is one. */
  defaultValue?: unknown;
  optional: boolean;
}

/**
 * Looks through the wrappers of an option's schema, collecting its meta and
 * default on the way.
 */
export function unwrapOption(schema: z.ZodType): UnwrappedOption {
  let current = schema;
  let meta: OptionMeta = {};
  let defaultValue: unknown;
  let optional = false;
  for (let depth = 0; depth < 10; depth++) {
    // The schema's own `.meta()` reads zod's global registry without importing zod.
    meta = { ...(current.meta() as OptionMeta | undefined), ...meta };
    const definition = definitionOf(current);
    if (definition.type === 'default' || definition.type === 'prefault') {
      defaultValue ??= definition.defaultValue;
      optional = true;
    }
    if (definition.type === 'optional' || definition.type === 'exact_optional') optional = true;
    if (definition.innerType === undefined || definition.type === 'pipe') break;
    current = definition.innerType;
  }
  const unwrapped: UnwrappedOption = { inner: current, meta, optional };
  if (defaultValue !== undefined) unwrapped.defaultValue = defaultValue;
  return unwrapped;
}
