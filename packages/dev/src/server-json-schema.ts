/**
 * Checks a `server.json` against the MCP Registry's schema (a copy in
 * `registry/`, see its README) and against what the registry refuses beyond
 * it: a name that does not match the package's `mcpName`.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { PackageManifest } from './package-manifest.ts';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
let validator: Validate | undefined;

function validateSchema(entry: unknown): string[] {
  validator ??= new Ajv({ strict: false, allErrors: true }).compile(
    JSON.parse(readFileSync(new URL('../registry/server.schema.json', import.meta.url), 'utf8')),
  );
  return validator(entry) ? [] : [JSON.stringify(validator.errors)];
}

/**
 * What the registry would refuse in a `server.json`: schema errors, and a
 * name, identifier or version that differ from the package's. Empty when it
 * would take it.
 *
 * @example
 * serverJsonProblems(JSON.parse(readFileSync('server.json', 'utf8')), manifest) // []
 */
export function serverJsonProblems(
  entry: { name?: string; version?: string; packages?: { identifier?: string; version?: string }[] },
  manifest: Pick<PackageManifest, 'name' | 'version' | 'mcpName'>,
): string[] {
  const problems = validateSchema(entry);
  const npm = entry.packages?.[0];
  if (
    entry.name !== manifest.mcpName ||
    entry.version !== manifest.version ||
    npm?.identifier !== manifest.name ||
    npm?.version !== manifest.version
  ) {
    problems.push(`server.json says ${entry.name}@${entry.version} (${npm?.identifier}@${npm?.version})`);
  }
  return problems;
}
