import type * as z from 'zod';

/** The zod classes the options code tells apart, by the trait name zod gives each. */
interface ZodKinds {
  ZodType: z.ZodType;
  ZodObject: z.ZodObject;
  ZodArray: z.ZodArray;
  ZodEnum: z.ZodEnum;
  ZodString: z.ZodString;
  ZodNumber: z.ZodNumber;
  ZodBoolean: z.ZodBoolean;
  ZodUnion: z.ZodUnion;
}

/**
 * Whether a value is a zod schema of a kind: what `instanceof z.ZodObject`
 * answers — zod's own `instanceof` reads the same traits — without importing
 * zod, and for a schema from any copy of it.
 */
export function isZodKind<Kind extends keyof ZodKinds>(value: unknown, kind: Kind): value is ZodKinds[Kind] {
  const traits = (value as { _zod?: { traits?: unknown } } | null | undefined)?._zod?.traits;
  return traits instanceof Set && traits.has(kind);
}
