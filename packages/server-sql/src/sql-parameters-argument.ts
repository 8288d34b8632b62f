import * as z from 'zod';
import type { SqlParameters } from './query-messages.ts';
import type { SqlEngineKind } from './sql-engine.ts';

const parameterValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const positionalForms: Record<SqlEngineKind, string> = { sqlite: '?', postgres: '$1, $2…', mysql: '?' };

/** How params are written, for the engines this server holds: each engine binds its own way. */
function parameterDescription(engines: ReadonlySet<SqlEngineKind>): string {
  const named = ', {} for :name/@name/$name (keys without prefix)';
  if (engines.size === 1 && engines.has('sqlite')) return `[] for ?${named}`;
  const positional = [
    ...new Set(
      (['sqlite', 'postgres', 'mysql'] as const)
        .filter((engine) => engines.has(engine))
        .map((engine) => positionalForms[engine]),
    ),
  ];
  return `[] for ${positional.join(' or ')}${engines.has('sqlite') ? named.replace('(', '(SQLite; ') : ''}`;
}

/** The `params` argument of query and export_query: values bound to the statement's placeholders. */
export function parametersArgument(engines: ReadonlySet<SqlEngineKind>): z.ZodType<SqlParameters | undefined> {
  return (
    z
      // Sizes are checked, not advertised: a model never comes near them, and each costs tokens on every turn.
      .union([
        z.array(parameterValue).refine((values) => values.length <= 999, 'at most 999 values'),
        z
          .record(z.string(), parameterValue)
          // JSON keys are strings whatever the schema says: `propertyNames` would only cost tokens.
          .meta({ propertyNames: undefined })
          .refine((named) => Object.keys(named).every((name) => name.length <= 128), 'names of 128 characters at most'),
      ])
      .optional()
      .describe(parameterDescription(engines))
  );
}
