import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import { LocalError, parseOptions } from '@toolshed/mcp-core';
import * as z from 'zod';

const scalarTypes = ['string', 'integer', 'number', 'boolean', 'date', 'timestamp'] as const;

/** The type of a scalar parameter, or of each item of an array parameter. */
export type ScalarType = (typeof scalarTypes)[number];

const allowedValue = z.union([z.string(), z.number(), z.boolean()]);

/** One parameter of a vetted statement, as the file declares it. */
export interface ParameterDefinition {
  name: string;
  type: ScalarType | 'array';
  /** For `type: array`: the type of each item. */
  items?: ScalarType | undefined;
  description?: string | undefined;
  required?: boolean | undefined;
  default?: unknown;
  enum?: (string | number | boolean)[] | undefined;
  allowedValues?: (string | number | boolean)[] | undefined;
  min?: number | undefined;
  max?: number | undefined;
  pattern?: string | undefined;
  maxLength?: number | undefined;
  maxItems?: number | undefined;
  /** `claim.<name>`: filled from the caller's verified token, never from the model. */
  from?: string | undefined;
}

const parameterDefinition: z.ZodType<ParameterDefinition, unknown> = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a name of letters, digits and _, not starting with a digit'),
    type: z.enum([...scalarTypes, 'array']),
    items: z.enum(scalarTypes).optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    default: z.unknown().optional(),
    enum: z.array(allowedValue).min(1).optional(),
    allowedValues: z.array(allowedValue).min(1).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    pattern: z.string().optional(),
    maxLength: z.number().int().positive().optional(),
    maxItems: z.number().int().positive().optional(),
    from: z
      .string()
      .regex(/^claim\.[^\s]{1,128}$/, 'claim.<name>, the name of a claim of the verified token')
      .optional(),
  })
  .superRefine((parameter, issues) => {
    const problem = (message: string) => issues.addIssue({ code: 'custom', message });
    if (parameter.type === 'array' && parameter.items === undefined) problem('an array parameter needs `items`');
    if (parameter.type !== 'array' && parameter.items !== undefined) problem('`items` is for array parameters');
    if (parameter.enum !== undefined && parameter.allowedValues !== undefined) {
      problem('give `enum` or `allowedValues`, not both');
    }
    if (parameter.from !== undefined && (parameter.default !== undefined || parameter.required === false)) {
      problem('a parameter bound to a claim is always required and has no default');
    }
    if (parameter.min !== undefined && parameter.max !== undefined && parameter.min > parameter.max) {
      problem('`min` is above `max`');
    }
  });

/** One vetted statement served as a tool, as the file declares it. */
export interface VettedToolDefinition {
  name: string;
  title?: string | undefined;
  description: string;
  /** One of the server's database names; may be left out when the server has one database. */
  database?: string | undefined;
  statement: string;
  parameters: ParameterDefinition[];
  /** Rows a call returns at most; at most the server's cap. Default: 100 or the server's cap, if lower. */
  maxRows?: number | undefined;
}

const toolDefinition: z.ZodType<VettedToolDefinition, unknown> = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 letters, digits, _ or -'),
  title: z.string().optional(),
  description: z.string().trim().min(1, 'a description written for the model'),
  database: z.string().optional(),
  statement: z.string().trim().min(1),
  parameters: z.array(parameterDefinition).default([]),
  maxRows: z.number().int().positive().optional(),
});

/** A tools file: the vetted statements a server offers as tools, and named sets of them. */
export const vettedToolsFile: z.ZodType<VettedToolsFile, unknown> = z.strictObject({
  tools: z.array(toolDefinition).min(1),
  toolsets: z.record(z.string(), z.array(z.string()).min(1)).optional(),
});

export interface VettedToolsFile {
  tools: VettedToolDefinition[];
  toolsets?: Record<string, string[]> | undefined;
}

/** What is named in a message about the tools: the file, or the inline block of the options. */
export interface LoadedToolsFile {
  source: string;
  file: VettedToolsFile;
}

function configError(message: string): LocalError {
  return new LocalError('config_invalid', message);
}

/** `tools.0.parameters.1.type` as `tool "orders" parameter "status" type`, so that a mistake is easy to find. */
function describePathIn(raw: unknown): (path: readonly PropertyKey[]) => string {
  return (path) => {
    const words: string[] = [];
    let node: unknown = raw;
    for (let index = 0; index < path.length; index++) {
      const key = path[index];
      const next = (node as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
      if (typeof key === 'number' && (path[index - 1] === 'tools' || path[index - 1] === 'parameters')) {
        const name = (next as { name?: unknown } | undefined)?.name;
        words.pop();
        const kind = path[index - 1] === 'tools' ? 'tool' : 'parameter';
        words.push(typeof name === 'string' ? `${kind} "${name}"` : `${kind} #${key + 1}`);
      } else words.push(String(key));
      node = next;
    }
    return words.length === 0 ? 'the top level' : words.join(' ');
  };
}

function parseText(path: string, text: string): unknown {
  if (extname(path).toLowerCase() === '.json') {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw configError(`tools file ${path} is not valid JSON: ${(error as Error).message}`);
    }
  }
  // YAML is read only when a tools file is written in it; most servers never load the parser.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  try {
    return parse(text, { prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    throw configError(`tools file ${path} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * The tools file of the options — a path to a JSON or YAML file, or its
 * contents inline — read and checked: every mistake stops the server at start
 * with where it is.
 */
export function loadToolsFile(tools: string | VettedToolsFile): LoadedToolsFile {
  let source = 'the tools option';
  let raw: unknown = tools;
  if (typeof tools === 'string') {
    const path = resolve(tools);
    source = `tools file ${path}`;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw configError(`${source} cannot be read: ${(error as Error).message}`);
    }
    raw = parseText(path, text);
  }
  return { source, file: parseOptions(vettedToolsFile, raw, source, describePathIn(raw)) };
}
