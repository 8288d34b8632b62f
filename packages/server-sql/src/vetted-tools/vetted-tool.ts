import { defineTool, structuredResult, type Tool, ToolError, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { queryOutput } from '../query-tool.ts';
import { queryViewUri } from '../query-view.ts';
import { runOnDatabase, type SqlServerContext } from '../sql-server-context.ts';
import { toolJsonSchemas } from '../tool-json-schemas.ts';
import type { BoundStatement } from './statement-placeholders.ts';
import { boundValue, claimName, parameterJsonSchema, parameterSchema } from './vetted-parameter.ts';
import type { VettedToolDefinition } from './vetted-tools-file.ts';

/** A vetted tool as the server runs it: its definition, the database it reads and its statement in that engine's form. */
export interface VettedStatement {
  definition: VettedToolDefinition;
  database: string;
  bound: BoundStatement;
  maxRows: number;
}

/**
 * The result of a call, with the hint of a cut result written for a tool
 * whose SQL the model cannot change: it can only narrow the parameters.
 */
function vettedResult(json: string, maxRows: number) {
  const result = JSON.parse(json) as Record<string, unknown>;
  if (result.truncated !== true) return structuredResult(result, { text: json });
  result.hint =
    result.truncated_by === 'max_rows'
      ? `This tool returns at most ${maxRows} rows; narrow its parameters for the rest.`
      : 'The rows reached the result size cap; narrow this tool’s parameters for the rest.';
  return structuredResult(result, { text: JSON.stringify(result) });
}

/**
 * One vetted statement as an MCP tool: its parameters typed and checked as
 * the file says, bound by the driver (never written into the SQL), those
 * taken from the caller's verified token hidden from the model and filled
 * from the token alone, and the statement run through every layer `query`
 * runs through.
 */
export function createVettedTool(
  context: SqlServerContext,
  statement: VettedStatement,
  /** Settles once the statement has passed its engine's gate; rejects with the reason it did not. */
  checked: Promise<void>,
): Tool {
  const { definition, database, bound, maxRows } = statement;
  const engine = context.databases.get(database)?.engine ?? 'sqlite';
  const shape: Record<string, z.ZodType> = {};
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const claims = new Map<string, { name: string; schema: z.ZodType }>();
  for (const parameter of definition.parameters) {
    const schema = parameterSchema(parameter);
    const claim = claimName(parameter);
    if (claim !== undefined) {
      claims.set(parameter.name, { name: claim, schema });
      continue;
    }
    const optional = parameter.required === false || parameter.default !== undefined;
    shape[parameter.name] =
      parameter.default !== undefined ? schema.default(parameter.default) : optional ? schema.optional() : schema;
    properties[parameter.name] = parameterJsonSchema(parameter);
    if (!optional) required.push(parameter.name);
  }
  const advertised: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) advertised.required = required;
  return defineTool({
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    // Not strict: an argument the tool does not take (a claim-bound parameter sent by the model, say) is dropped.
    input: z.object(shape),
    advertisedInputSchema: advertised,
    output: queryOutput,
    // The result is query's, so is its generated JSON Schema; the input shown is advertisedInputSchema.
    jsonSchemas: toolJsonSchemas.query,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // Rows like query's, shown in query's view.
    meta: toolViewMeta({ resourceUri: queryViewUri }),
    async run(args, call) {
      try {
        await checked;
      } catch (error) {
        throw new ToolError(`This tool is not available: ${(error as Error).message}`);
      }
      const values = definition.parameters.map((parameter) => {
        const claim = claims.get(parameter.name);
        if (claim === undefined) return (args as Record<string, unknown>)[parameter.name];
        const value = call.auth?.claims[claim.name];
        if (value === undefined) {
          throw new ToolError(
            call.auth === undefined
              ? `This tool needs the caller's "${claim.name}" claim, and this request was not authenticated with a token.`
              : `This tool needs the caller's "${claim.name}" claim, and the caller's token has none.`,
          );
        }
        if (!claim.schema.safeParse(value).success) {
          throw new ToolError(`The caller's "${claim.name}" claim is not what this tool takes for ${parameter.name}.`);
        }
        return value;
      });
      const params = bound.order.map((index) => {
        const parameter = definition.parameters[index];
        return parameter === undefined ? null : boundValue(parameter, values[index], engine);
      });
      const json = await runOnDatabase(
        context,
        {
          kind: 'query',
          database,
          sql: bound.sql,
          params,
          limits: { maxRows, maxBytes: context.limits.maxResultBytes, maxBlobBytes: context.limits.maxBlobBytes },
        },
        call,
      );
      return vettedResult(json, maxRows);
    },
  });
}
