/**
 * Packs every publishable package as npm would receive it and checks it
 * installed — by `@toolshed/dev`'s pack check (see its README) — with what
 * this workspace's bins need to start and a call through each package that
 * loads a separate file, a native addon or an upstream at run time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inMemoryCallScript, runPackCheck, type SmokeCheck } from '../packages/dev/src/index.ts';
import { bundleAuthor, serverPackages, workspaceRoot } from './server-packages.ts';

/** What a bin needs on its command line to start; an empty file is a valid empty SQLite database. */
const startArguments: Record<string, (directory: string) => string[]> = {
  'toolshed-sql': (directory) => {
    writeFileSync(join(directory, 'empty.db'), '');
    return ['--db', join(directory, 'empty.db')];
  },
  'toolshed-filesystem': (directory) => [directory],
  'toolshed-weather': () => [],
  'toolshed-email': (directory) => ['--outbox', join(directory, 'outbox')],
  'toolshed-image': (directory) => [directory],
  toolshed: (directory) => {
    writeFileSync(join(directory, 'empty.db'), '');
    writeFileSync(
      join(directory, 'toolshed.json'),
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
        mcpServers: { '@toolshed/server-sql': { databases: join(directory, 'empty.db') } },
      }),
    );
    return ['serve', '--config', join(directory, 'toolshed.json')];
  },
};

const smokeChecks: SmokeCheck[] = [
  // mcp-core has no bin: serve a tool from the installed package and call it.
  {
    packageName: '@toolshed/mcp-core',
    label: '@toolshed/mcp-core serves a tool from the installed tarball',
    script: inMemoryCallScript(
      `import { createMcpServer, defineTool } from '@toolshed/mcp-core';
import { createSpecValidator } from '@toolshed/mcp-core/testing';
import * as z from 'zod';
const server = createMcpServer({ name: 'smoke', version: '1.0.0', tools: [defineTool({
  name: 'add', description: 'Adds.', input: z.object({ a: z.number(), b: z.number() }), output: z.object({ sum: z.number() }),
  run: ({ a, b }) => ({ sum: a + b }) })] });`,
      { name: 'add', arguments: { a: 2, b: 3 } },
      `const validator = createSpecValidator('2025-11-25');
const problems = [...validator.validateServerMessage(answers[0], 'initialize'), ...validator.validateServerMessage(answers[1], 'tools/call')];
if (answers[1]?.result?.structuredContent?.sum !== 5 || problems.length > 0) { console.error(JSON.stringify({ answers, problems })); process.exit(1); }`,
    ),
  },

  // The query process is a separate file the server forks: run a query through the installed package.
  {
    packageName: '@toolshed/server-sql',
    label: '@toolshed/server-sql runs a query in its query process from the installed tarball',
    script: inMemoryCallScript(
      `import { createSqlServer } from '@toolshed/server-sql';
const server = createSqlServer({ databases: { empty: 'empty.db' } });`,
      { name: 'query', arguments: { sql: 'SELECT 6 * 7' } },
      `if (JSON.stringify(answers[1]?.result?.structuredContent?.rows) !== '[[42]]') { console.error(JSON.stringify(answers)); process.exit(1); }`,
    ),
  },

  // The regex worker is a separate file the server starts: search by regular expression through the installed package.
  {
    packageName: '@toolshed/server-filesystem',
    label: '@toolshed/server-filesystem searches file contents in its regex worker from the installed tarball',
    script: inMemoryCallScript(
      `import { writeFileSync } from 'node:fs';
import { createFilesystemServer } from '@toolshed/server-filesystem';
writeFileSync('needle.txt', 'hay\\nneedle 42\\n');
const server = createFilesystemServer({ directories: ['.'] });`,
      {
        name: 'search_file_contents',
        arguments: { path: '.', pattern: 'needle \\d+', regex: true, include: ['needle.txt'] },
      },
      `if (answers[1]?.result?.structuredContent?.matches?.[0]?.line !== 2) { console.error(JSON.stringify(answers)); process.exit(1); }`,
    ),
  },

  // undici is the weather server's one runtime dependency beyond mcp-core and zod: fetch through it from the
  // installed package, against a local upstream that answers as Open-Meteo's geocoding does.
  {
    packageName: '@toolshed/server-weather',
    label: '@toolshed/server-weather asks its upstream through undici from the installed tarball',
    script: inMemoryCallScript(
      `import { createServer } from 'node:http';
import { createWeatherServer } from '@toolshed/server-weather';
const upstream = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ results: [{ id: 1, name: 'Smoketown', latitude: 1.23456, longitude: 2.5, country: 'Nowhere' }] }));
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const server = createWeatherServer({ upstreams: { geocodingUrl: 'http://127.0.0.1:' + upstream.address().port } });`,
      { name: 'search_locations', arguments: { name: 'Smoketown' } },
      `upstream.close();
if (answers[1]?.result?.structuredContent?.locations?.[0]?.latitude !== 1.2346) { console.error(JSON.stringify(answers)); process.exit(1); }`,
    ),
  },

  // nodemailer builds the message: write one to the outbox through the installed package and read it back.
  {
    packageName: '@toolshed/server-email',
    label: '@toolshed/server-email composes a message with nodemailer into its outbox from the installed tarball',
    script: inMemoryCallScript(
      `import { readdirSync, readFileSync } from 'node:fs';
import { createEmailServer } from '@toolshed/server-email';
const server = createEmailServer({ outboxDirectory: 'smoke-outbox', skipConfirmation: true, log: () => {} });`,
      { name: 'send_email', arguments: { to: 'outbox@toolshed.invalid', subject: 'Smoke ✓', text: 'Hello' } },
      `const files = readdirSync('smoke-outbox');
const eml = files.length === 1 ? readFileSync('smoke-outbox/' + files[0], 'utf8') : '';
if (answers[1]?.result?.structuredContent?.delivery !== 'outbox' || !eml.includes('Subject: =?UTF-8?Q?Smoke_=E2=9C=93?=')) { console.error(JSON.stringify(answers), eml); process.exit(1); }`,
    ),
  },

  // sharp is a native addon with per-platform binaries: make a thumbnail through the installed package.
  {
    packageName: '@toolshed/server-image',
    label: '@toolshed/server-image makes a thumbnail with sharp from the installed tarball',
    script: inMemoryCallScript(
      `import sharp from 'sharp';
import { createImageServer } from '@toolshed/server-image';
const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } }).png().toBuffer();
const server = createImageServer();`,
      {
        name: 'process_image',
        arguments: { data: '__PNG__', operations: [{ op: 'thumbnail', size: 64 }], format: 'webp' },
      },
      `const result = answers[1]?.result;
const image = result?.content?.find((block) => block.type === 'image');
const metadata = image === undefined ? undefined : await sharp(Buffer.from(image.data, 'base64')).metadata();
if (metadata?.format !== 'webp' || metadata.width !== 64 || metadata.height !== 64) { console.error(JSON.stringify(answers)); process.exit(1); }`,
    ).replace('"__PNG__"', "png.toString('base64')"),
  },

  // The host mounts our servers from their installed packages: serve one through it and call a tool.
  {
    packageName: '@toolshed/host',
    label: '@toolshed/host mounts @toolshed/server-sql from the installed tarballs and forwards a call',
    script: inMemoryCallScript(
      `import { createHost, parseHostConfig } from '@toolshed/host';
const host = createHost(parseHostConfig(JSON.stringify({ toolshed: { audit: { enabled: false } }, mcpServers: { '@toolshed/server-sql': { databases: 'empty.db' } } }), 'toolshed.json'));
await host.start();
const server = host.server;`,
      { name: 'sql_query', arguments: { sql: 'SELECT 6 * 7' } },
      `if (JSON.stringify(answers[1]?.result?.structuredContent?.rows) !== '[[42]]') { console.error(JSON.stringify(answers)); process.exit(1); }`,
    ),
  },
];

const { failures } = await runPackCheck({
  root: workspaceRoot,
  servers: serverPackages,
  startArguments,
  smokeChecks,
  // ajv is the optional peer that @toolshed/mcp-core/testing needs; the smoke scripts import zod 4 as the servers
  // do, where @toolshed/dev's mcpb (on zod 3) would otherwise have npm hoist zod 3 to the top.
  extraInstalls: ['ajv@8', 'zod@^4.6.7'],
  serverJsonCommand: 'node scripts/write-server-json.ts',
  author: bundleAuthor,
  // The SQL server's databases are files: an empty file is a valid empty SQLite database.
  bundleSampleValue: (key, setting, sample) =>
    key === 'databases' || setting.type === 'file' ? join(sample, 'empty.db') : sample,
  resultsFile: join(workspaceRoot, '.pack-check-results.json'),
});
if (failures.length > 0) process.exit(1);
