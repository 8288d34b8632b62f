import { LocalError } from '@toolshed/mcp-core';
import type { SqlServerContext } from '../sql-server-context.ts';
import { bindStatement } from './statement-placeholders.ts';
import { parameterSchema } from './vetted-parameter.ts';
import type { VettedStatement } from './vetted-tool.ts';
import type { LoadedToolsFile, VettedToolDefinition } from './vetted-tools-file.ts';

/** The names of the server's own tools, which a vetted tool may not take. */
export const builtInToolNames: readonly string[] = ['list_tables', 'describe_table', 'query', 'explain_query'];

function configError(message: string): LocalError {
  return new LocalError('config_invalid', message);
}

function namesOf(values: Iterable<string>): string {
  return [...values].map((name) => `"${name}"`).join(', ');
}

/** The tools of the chosen toolset, or all of them; an unknown set or a set naming an unknown tool stops the server. */
function chosenTools(loaded: LoadedToolsFile, toolset: string | undefined): VettedToolDefinition[] {
  const { source, file } = loaded;
  const byName = new Map(file.tools.map((tool) => [tool.name, tool]));
  for (const [set, names] of Object.entries(file.toolsets ?? {})) {
    for (const name of names) {
      if (!byName.has(name)) throw configError(`${source}: toolset "${set}" names "${name}", which is not a tool`);
    }
  }
  if (toolset === undefined) return file.tools;
  const names = file.toolsets?.[toolset];
  if (names === undefined) {
    const known = Object.keys(file.toolsets ?? {});
    throw configError(
      `${source} has no toolset "${toolset}"${known.length === 0 ? ' (it defines none)' : `; it has ${namesOf(known)}`}`,
    );
  }
  return [...new Set(names)].map((name) => byName.get(name) as VettedToolDefinition);
}

function checkParameters(where: string, tool: VettedToolDefinition): void {
  const seen = new Set<string>();
  for (const parameter of tool.parameters) {
    const what = `${where} parameter "${parameter.name}"`;
    if (seen.has(parameter.name)) throw configError(`${where}: two parameters are named "${parameter.name}"`);
    seen.add(parameter.name);
    if (parameter.pattern !== undefined) {
      try {
        new RegExp(parameter.pattern, 'u');
      } catch (error) {
        throw configError(`${what}: the pattern is not a valid regular expression: ${(error as Error).message}`);
      }
    }
    if (parameter.default !== undefined) {
      const checked = parameterSchema(parameter).safeParse(parameter.default);
      if (!checked.success) {
        throw configError(`${what}: the default does not fit the parameter: ${checked.error.issues[0]?.message}`);
      }
    }
  }
}

/**
 * The vetted statements the server serves, checked as far as can be without
 * a database: names, databases, parameters, defaults and placeholders. Each
 * mistake stops the server with the file, the tool and the reason. The
 * statements themselves pass the engines' read-only gates in
 * `checkVettedStatements`.
 */
export function vettedStatements(
  context: SqlServerContext,
  loaded: LoadedToolsFile,
  toolset: string | undefined,
): VettedStatement[] {
  const statements: VettedStatement[] = [];
  const names = new Set<string>();
  for (const tool of chosenTools(loaded, toolset)) {
    const where = `${loaded.source}: tool "${tool.name}"`;
    if (builtInToolNames.includes(tool.name)) throw configError(`${where}: the name is one of the server's own tools`);
    if (names.has(tool.name)) throw configError(`${loaded.source}: two tools are named "${tool.name}"`);
    names.add(tool.name);
    const database = tool.database ?? (context.databaseNames.length === 1 ? context.databaseNames[0] : undefined);
    if (database === undefined) {
      throw configError(`${where}: say which database it reads (one of ${namesOf(context.databaseNames)})`);
    }
    const engine = context.databases.get(database)?.engine;
    if (engine === undefined) {
      throw configError(
        `${where}: there is no database "${database}" (the server has ${namesOf(context.databaseNames)})`,
      );
    }
    checkParameters(where, tool);
    if (tool.maxRows !== undefined && tool.maxRows > context.limits.maxRows) {
      throw configError(`${where}: maxRows ${tool.maxRows} is above the server's cap of ${context.limits.maxRows}`);
    }
    let bound: VettedStatement['bound'];
    try {
      bound = bindStatement(
        tool.statement,
        engine,
        tool.parameters.map((parameter) => parameter.name),
      );
    } catch (error) {
      throw configError(`${where}: ${(error as Error).message}`);
    }
    statements.push({
      definition: tool,
      database,
      bound,
      maxRows: tool.maxRows ?? Math.min(100, context.limits.maxRows),
    });
  }
  return statements;
}
