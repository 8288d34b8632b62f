import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type Json, parseConfigJson } from './config-json.ts';
import { resolveVariablesIn, workspaceFolderOf } from './config-variables.ts';
import { type HostConfig, type ServerEntry, type ToolshedPackage, toolshedPackages } from './host-config.ts';

const approvalModeSchema = z.enum(['elicit', 'console', 'elicit-or-console']);

/** Per-server host settings, allowed on every kind of entry. */
const hostSettings = {
  tools: z
    .strictObject({
      allow: z.array(z.string().min(1)).optional(),
      deny: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,32}$/, 'a prefix of letters, digits, _ and -, at most 32')
    .optional(),
  toolTimeoutMs: z.number().int().min(1).optional(),
  rateLimit: z
    .strictObject({ perMinute: z.number().int().min(1).optional(), perHour: z.number().int().min(1).optional() })
    .optional(),
  approval: z
    .strictObject({
      require: z.array(z.string().min(1)).optional(),
      skip: z.array(z.string().min(1)).optional(),
      mode: approvalModeSchema.optional(),
      modes: z.record(z.string().min(1), approvalModeSchema).optional(),
    })
    .optional(),
  disabled: z.boolean().optional(),
};

const stdioEntrySchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  inheritEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')).optional(),
  cwd: z.string().min(1).optional(),
  envFile: z.string().optional(),
  ...hostSettings,
});

const httpEntrySchema = z.strictObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).default({}),
  ...hostSettings,
});

const packageEntrySchema = z.strictObject({
  package: z.enum(toolshedPackages as [ToolshedPackage, ...ToolshedPackage[]]),
  options: z.record(z.string(), z.unknown()).default({}),
  ...hostSettings,
});

const hostSettingsSchema = z.object(hostSettings);

const hostOptionsSchema = z.strictObject({
  separator: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,3}$/, 'one to three of letters, digits, _ and -')
    .default('_'),
  audit: z
    .strictObject({
      enabled: z.boolean().default(true),
      path: z.string().min(1).optional(),
      maxBytes: z
        .number()
        .int()
        .min(1024)
        .default(10 * 1024 * 1024),
      files: z.number().int().min(1).max(100).default(5),
    })
    .default({ enabled: true, maxBytes: 10 * 1024 * 1024, files: 5 }),
  maxRestarts: z.number().int().min(0).default(5),
  toolTimeoutMs: z.number().int().min(1).optional(),
  toolList: z.enum(['full', 'search']).default('full'),
  approval: z
    .strictObject({
      mode: approvalModeSchema.default('elicit-or-console'),
      consoleTimeLimitMs: z
        .number()
        .int()
        .min(1)
        .default(5 * 60_000),
    })
    .default({ mode: 'elicit-or-console', consoleTimeLimitMs: 5 * 60_000 }),
});

function invalid(source: string, path: readonly (string | number)[], message: string): LocalError {
  const where =
    path.length === 0
      ? ''
      : ` at ${path
          .map((part) => (typeof part === 'number' ? `[${part}]` : part))
          .join('.')
          .replace(/\.\[/g, '[')}`;
  return new LocalError('config_invalid', `${source}${where}: ${message}`);
}

function parseWith<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  source: string,
  path: (string | number)[],
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      : (issue?.message ?? 'invalid');
  throw invalid(source, [...path, ...((issue?.path ?? []) as (string | number)[])], message);
}

/** The server name a package entry gets when it is keyed by the package: `@toolshed/server-sql` → `sql`. */
function packageServerName(name: string): string {
  return name.replace(/^@toolshed\/server-/, '');
}

const hostKeys = new Set(Object.keys(hostSettingsSchema.shape));

function serverEntry(name: string, raw: Json, source: string, path: (string | number)[]): ServerEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(source, path, 'expected an object describing the server');
  }
  if ((toolshedPackages as readonly string[]).includes(name)) {
    // Shorthand: keyed by the package, the value is the server's options plus any host settings.
    const options = Object.fromEntries(Object.entries(raw).filter(([key]) => !hostKeys.has(key)));
    const settings = Object.fromEntries(Object.entries(raw).filter(([key]) => hostKeys.has(key)));
    const entry = parseWith(packageEntrySchema, { package: name, options, ...settings }, source, path);
    return { ...entry, name: packageServerName(name), kind: 'package', package: name as ToolshedPackage };
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw invalid(source, path, 'server names may use letters, digits, _ and - only (up to 64)');
  }
  const has = (key: string) => key in raw;
  const type = typeof raw.type === 'string' ? raw.type : undefined;
  if (type === 'sse') {
    throw invalid(source, [...path, 'type'], 'the legacy SSE transport is not supported; use a Streamable HTTP url');
  }
  if (has('package')) {
    const entry = parseWith(packageEntrySchema, raw, source, path);
    return { ...entry, name, kind: 'package' };
  }
  if (has('command') && has('url')) throw invalid(source, path, 'give either command (stdio) or url (HTTP), not both');
  if (has('command') || type === 'stdio') {
    const entry = parseWith(stdioEntrySchema, raw, source, path);
    if (entry.envFile !== undefined) throw invalid(source, [...path, 'envFile'], 'envFile is not supported; use env');
    return {
      ...entry,
      name,
      kind: 'stdio',
      cwd: entry.cwd === undefined ? undefined : resolve(workspaceFolderOf(source), entry.cwd),
    };
  }
  if (has('url') || type !== undefined) {
    const entry = parseWith(httpEntrySchema, raw, source, path);
    return { ...entry, name, kind: 'http' };
  }
  throw invalid(
    source,
    path,
    `expected "command" (a stdio server), "url" (Streamable HTTP) or "package" (${toolshedPackages.join(', ')})`,
  );
}

/**
 * Reads a host configuration in the shapes clients already use —
 * `{"mcpServers": {...}}` (Claude Desktop, Cursor) or `{"servers": {...}}`
 * (VS Code, with `type`) — plus an optional `"toolshed"` block for the host's
 * own settings. Comments and trailing commas are allowed (JSONC), and the
 * variables VS Code resolves (`${env:NAME}`, `${workspaceFolder}`,
 * `${userHome}`, …) are resolved everywhere as it does. Any mistake is a
 * LocalError naming the JSON path and what was expected.
 */
export function parseHostConfig(text: string, source: string, env: NodeJS.ProcessEnv = process.env): HostConfig {
  let document: Json;
  try {
    document = parseConfigJson(text);
  } catch (error) {
    throw invalid(source, [], (error as Error).message);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw invalid(source, [], 'expected an object with "mcpServers" or "servers"');
  }
  // VS Code's `inputs` declare the questions behind ${input:ID}; they are not resolved themselves.
  const { inputs: _inputs, ...rest } = document;
  const substituted = resolveVariablesIn(rest, { env, source }, (path, message) =>
    invalid(source, path, message),
  ) as Record<string, Json>;
  const key = 'mcpServers' in substituted ? 'mcpServers' : 'servers' in substituted ? 'servers' : undefined;
  if (key === undefined)
    throw invalid(source, [], 'expected "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code)');
  if ('mcpServers' in substituted && 'servers' in substituted) {
    throw invalid(source, [], 'give "mcpServers" or "servers", not both');
  }
  const table = substituted[key];
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw invalid(source, [key], 'expected an object of servers by name');
  }
  const options = parseWith(hostOptionsSchema, substituted.toolshed ?? {}, source, ['toolshed']);
  const servers = Object.entries(table).map(([name, raw]) => serverEntry(name, raw, source, [key, name]));
  const names = new Set<string>();
  for (const server of servers) {
    if (names.has(server.name)) throw invalid(source, [key, server.name], `a second server named "${server.name}"`);
    names.add(server.name);
  }
  return { options, servers: servers.filter((server) => server.disabled !== true), source };
}

export function loadHostConfig(path: string, env: NodeJS.ProcessEnv = process.env): HostConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new LocalError(
      'config_invalid',
      `cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  return parseHostConfig(text, resolve(path), env);
}
