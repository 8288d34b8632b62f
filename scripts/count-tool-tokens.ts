/**
 * `pnpm bench:tokens`: what each server's tool list costs a model on every
 * turn (scripts/tool-tokens.ts says what is counted), against its budget, and
 * the anchors in each area. Each server is created with sample options and its
 * tools listed by the official SDK client, as a host would see them; the
 * reference filesystem server, a dev dependency of server-filesystem, is
 * started and listed the same way. `--tools` adds a line per tool.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { McpServer } from '../packages/mcp-core/src/index.ts';
import { connectTestClient, type TestTarget } from '../packages/mcp-core/src/testing.ts';
import { createEmailServer } from '../packages/server-email/src/index.ts';
import { createFilesystemServer } from '../packages/server-filesystem/src/index.ts';
import { createImageServer } from '../packages/server-image/src/index.ts';
import { createSampleDatabase } from '../packages/server-sql/src/__fixtures__/sample-database.ts';
import { createSqlServer } from '../packages/server-sql/src/index.ts';
import { createWeatherServer } from '../packages/server-weather/src/index.ts';
import { countToolListTokens, type ServerName, toolListTokenBudgets, toolTokenBudget } from './tool-tokens.ts';

interface Row {
  server: string;
  /** Undefined on a line for one tool. */
  tools: number | undefined;
  tokens: number;
  budget: string;
  note: string;
}

const showTools = process.argv.includes('--tools');

const directory = mkdtempSync(join(tmpdir(), 'toolshed-tokens-'));
const folder = (name: string): string => {
  const path = join(directory, name);
  mkdirSync(path, { recursive: true });
  return path;
};
const database = createSampleDatabase();

const servers: { [server in ServerName]: () => McpServer } = {
  sql: () => createSqlServer({ databases: database.path }),
  filesystem: () => createFilesystemServer({ directories: [folder('files')] }),
  weather: () => createWeatherServer({ contact: 'tokens@example.com' }),
  email: () =>
    createEmailServer({
      outboxDirectory: folder('outbox'),
      attachmentsDirectory: folder('attachments'),
      allowRecipients: ['example.com'],
    }),
  image: () => createImageServer({ directories: [folder('images')], outputDirectory: folder('images-out') }),
};

async function listedTokens(target: TestTarget, transport: 'memory' | 'stdio') {
  const client = await connectTestClient(target, { client: 'v1', transport });
  try {
    const tools = await client.listTools();
    const counted = countToolListTokens(tools);
    return { tools: tools.length, tokens: counted.total, each: counted.tools };
  } finally {
    await client.close();
  }
}

/**
 * Anchors that are not dev dependencies, as issue 29 measured them with this
 * counter: shown for scale, not measured in this run.
 */
const fixedNote = 'anchor, fixed figure from issue 29';
const fixedAnchors: Row[] = [
  { server: 'dbhub (sql)', tools: 2, tokens: 272, budget: '', note: fixedNote },
  { server: 'open-meteo-mcp-server (weather)', tools: 17, tokens: 42_514, budget: '', note: fixedNote },
  { server: 'email-mcp (email)', tools: 49, tokens: 8372, budget: '', note: fixedNote },
];

const rows: Row[] = [];
let overBudget = false;
try {
  for (const [name, create] of Object.entries(servers) as [ServerName, () => McpServer][]) {
    const server = create();
    try {
      const { tools, tokens, each } = await listedTokens({ server }, 'memory');
      const budget = toolListTokenBudgets[name];
      const overTool = each.some((tool) => tool.tokens > toolTokenBudget);
      overBudget ||= tokens > budget || overTool;
      rows.push({
        server: `server-${name}`,
        tools,
        tokens,
        budget: String(budget),
        note: tokens > budget ? 'over budget' : overTool ? `a tool over ${toolTokenBudget}` : '',
      });
      if (showTools) {
        for (const tool of each) {
          rows.push({ server: `  ${tool.name}`, tools: undefined, tokens: tool.tokens, budget: '', note: '' });
        }
      }
    } finally {
      await server.close();
    }
  }
  const requireFromFilesystem = createRequire(new URL('../packages/server-filesystem/package.json', import.meta.url));
  const reference = dirname(requireFromFilesystem.resolve('@modelcontextprotocol/server-filesystem/package.json'));
  const referenceVersion = requireFromFilesystem('@modelcontextprotocol/server-filesystem/package.json').version;
  const { each: _each, ...measured } = await listedTokens(
    { bin: [join(reference, 'dist', 'index.js'), folder('reference')] },
    'stdio',
  );
  rows.push({
    server: `reference server-filesystem ${referenceVersion}`,
    ...measured,
    budget: '',
    note: 'anchor, measured in this run',
  });
  rows.push(...fixedAnchors);
} finally {
  database.remove();
  rmSync(directory, { recursive: true, force: true });
}

const table = [
  ['server', 'tools', 'tokens', 'per tool', 'budget', ''],
  ...rows.map((row) => [
    row.server,
    row.tools === undefined ? '' : String(row.tools),
    row.tokens.toLocaleString('en'),
    row.tools === undefined ? '' : Math.round(row.tokens / row.tools).toLocaleString('en'),
    row.budget === '' ? '' : Number(row.budget).toLocaleString('en'),
    row.note,
  ]),
];
console.log(
  'What a tool list costs a model on every turn: o200k_base tokens of the tools (name, description, inputSchema) as JSON\n',
);
console.log(
  table
    .map((cells) => `| ${cells.join(' | ')} |`)
    .flatMap((line, index) => (index === 0 ? [line, `|${' --- |'.repeat(table[0]?.length ?? 0)}`] : [line]))
    .join('\n'),
);
process.exitCode = overBudget ? 1 : 0;
