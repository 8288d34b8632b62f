import { homedir } from 'node:os';
import { basename, dirname, sep } from 'node:path';
import type { Json } from './config-json.ts';

/** Where a config's variables point, from the file it was read from. */
export interface VariableContext {
  env: NodeJS.ProcessEnv;
  /** The config file's path; `${workspaceFolder}` is taken from it. */
  source: string;
}

/** A variable that cannot be resolved, with why; the caller says where it was. */
export class UnresolvedVariableError extends Error {}

/**
 * VS Code's rule: a `.vscode/mcp.json` belongs to the folder that holds
 * `.vscode`; any other config file to its own directory.
 */
export function workspaceFolderOf(source: string): string {
  const directory = dirname(source);
  return basename(directory) === '.vscode' ? dirname(directory) : directory;
}

const variable = /\$\{([^}]*)\}/g;

/**
 * A string with the variables VS Code resolves in `mcp.json` replaced:
 * `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`,
 * `${pathSeparator}` (and `${/}`), `${env:NAME}`. An unset variable is an
 * error rather than VS Code's empty string, since an empty token or path
 * fails later and further from its cause. `${input:ID}` is refused: VS Code
 * asks its user for it, and a value the host cannot ask for must not reach a
 * server as the literal text. Other `${...}` are left as they are, as VS
 * Code leaves what it does not know.
 */
export function resolveVariables(text: string, context: VariableContext): string {
  return text.replace(variable, (whole, name: string) => {
    if (name === 'workspaceFolder') return workspaceFolderOf(context.source);
    if (name === 'workspaceFolderBasename') return basename(workspaceFolderOf(context.source));
    if (name === 'userHome') return homedir();
    if (name === 'pathSeparator' || name === '/') return sep;
    if (name.startsWith('env:')) {
      const found = context.env[name.slice(4)];
      if (found === undefined) throw new UnresolvedVariableError(`${whole} is used but ${name.slice(4)} is not set`);
      return found;
    }
    if (name.startsWith('input:')) {
      throw new UnresolvedVariableError(
        `${whole} asks the user for "${name.slice(6)}", which only VS Code can do; set it in an environment variable and write \${env:NAME} instead`,
      );
    }
    return whole;
  });
}

/** Every string in a JSON value resolved; `onError` names the path of the one that cannot be. */
export function resolveVariablesIn(
  value: Json,
  context: VariableContext,
  onError: (path: (string | number)[], message: string) => Error,
  path: (string | number)[] = [],
): Json {
  if (typeof value === 'string') {
    try {
      return resolveVariables(value, context);
    } catch (error) {
      if (error instanceof UnresolvedVariableError) throw onError(path, error.message);
      throw error;
    }
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => resolveVariablesIn(item, context, onError, [...path, index]));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveVariablesIn(item, context, onError, [...path, key])]),
    );
  }
  return value;
}
