import * as z from 'zod';

/**
 * The arguments every weather tool takes to say where: a place name, or
 * coordinates. Both are optional in the schema (clients reject top-level
 * oneOf); resolveLocation insists on exactly one.
 */
export function locationArguments(): {
  location: z.ZodOptional<z.ZodString>;
  latitude: z.ZodOptional<z.ZodNumber>;
  longitude: z.ZodOptional<z.ZodNumber>;
} {
  return {
    location: z
      .string()
      .trim()
      .min(2)
      .max(200)
      .optional()
      .describe('A place, e.g. "Paris, Texas"; or give latitude and longitude'),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
  };
}

/** metric: °C, km/h, mm; imperial: °F, mph, inch. Without it the server's setting; results name their units. */
export function unitsArgument(): z.ZodOptional<z.ZodEnum<{ metric: 'metric'; imperial: 'imperial' }>> {
  return z.enum(['metric', 'imperial']).optional();
}

/** Where the answer is for, as every weather tool reports it. */
export interface LocationOutput {
  name: string | null;
  latitude: number;
  longitude: number;
  timezone: string | null;
  resolved_from: 'name' | 'coordinates';
  query?: string | undefined;
  other_matches?: { name: string; latitude: number; longitude: number }[] | undefined;
  from_default?: true | undefined;
}

export function locationOutput(): z.ZodType<LocationOutput> {
  return z.object({
    name: z.string().nullable().describe('The place, when a name was resolved: "Berlin, Land Berlin, Germany"'),
    latitude: z.number(),
    longitude: z.number(),
    timezone: z.string().nullable().describe('IANA time zone all local times are given in'),
    resolved_from: z.enum(['name', 'coordinates']),
    query: z.string().optional().describe('The name as given, when resolved from a name'),
    other_matches: z
      .array(z.object({ name: z.string(), latitude: z.number(), longitude: z.number() }))
      .optional()
      .describe('Other places the name could mean; pass one’s coordinates to use it instead'),
    from_default: z
      .literal(true)
      .optional()
      .describe('The call named no place, so this is the server’s default location'),
  });
}

/** How fresh the answer is. */
export interface Freshness {
  fetched_at: string;
  from_cache: boolean;
  stale: boolean;
  stale_reason?: string | undefined;
}

export function freshnessOutput(): z.ZodType<Freshness> {
  return z.object({
    fetched_at: z.string().describe('When the upstream produced this answer (UTC, ISO 8601)'),
    from_cache: z.boolean(),
    stale: z
      .boolean()
      .describe('True when the upstream failed just now and this is the last answer it gave, older than usual'),
    stale_reason: z.string().optional(),
  });
}
