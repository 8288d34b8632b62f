/**
 * Packs every publishable package as npm would receive it — with its version
 * bumped, so every bin must report the version it was packed with — lints the
 * tarball (publint, attw), installs all tarballs into an empty directory,
 * imports every entry point and starts every bin: `--help`, `--version`, then
 * initialize and tools/list over stdio. Then the same bins on the lowest Node
 * the packages' engines allow, installed by that Node, and on an older Node
 * (the machine's, when it is older), where each must refuse in one line.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildMcpbBundle } from './mcpb-bundle.ts';
import { serverPackages } from './server-packages.ts';

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  publishConfig?: { exports?: Record<string, unknown>; bin?: Record<string, string> };
}

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'toolshed-pack-'));
const failures: string[] = [];
let passed = 0;

function run(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env ?? process.env,
  });
}

function check(label: string, action: () => void): void {
  try {
    action();
    passed++;
    console.log(`  ok   ${label}`);
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string; message: string };
    failures.push(`${label}: ${output.stdout ?? ''}${output.stderr ?? ''}${output.message}`);
    console.log(`  FAIL ${label}\n${output.stdout ?? ''}${output.stderr ?? ''}`);
  }
}

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

/** Initialize, then tools/list, over stdio: the server must name the version it was packed with and list tools. */
function listToolsOverStdio(
  node: string,
  binPath: string,
  name: string,
  args: string[],
  version: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [binPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: no tools/list answer in 20 s; got ${stdout}`));
    }, 20_000);
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const lines = stdout.split('\n').filter(Boolean);
      if (lines.length === 1 && stdout.endsWith('\n')) {
        const initialized = JSON.parse(lines[0] as string);
        if (initialized.result?.serverInfo?.version !== version) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(
            new Error(`${name}: serverInfo says ${JSON.stringify(initialized.result?.serverInfo)}, not ${version}`),
          );
          return;
        }
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'tools/list' });
      }
      if (lines.length < 2 || !stdout.endsWith('\n')) return;
      clearTimeout(timer);
      child.stdin.end();
      const tools = JSON.parse(lines[1] as string).result?.tools;
      if (Array.isArray(tools) && tools.length > 0) resolve();
      else reject(new Error(`${name}: unexpected tools/list answer ${lines[1]}`));
    });
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pack-check', version: '0' } },
    });
  });
}

/** Every bin of the installed packages, as `[name, path, version]`. */
function installedBins(directory: string): [string, string, string][] {
  return tarballs.flatMap(({ manifest }) => {
    const installed = JSON.parse(
      readFileSync(join(directory, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ) as PackageJson;
    return Object.entries(installed.bin ?? {}).map(([bin, path]): [string, string, string] => [
      bin,
      join(directory, 'node_modules', manifest.name, path),
      installed.version,
    ]);
  });
}

/** Starts every installed bin on `node`: its version, then initialize and tools/list. */
async function startBins(node: string, directory: string, label: string): Promise<void> {
  for (const [bin, binPath, version] of installedBins(directory)) {
    check(`${bin} --version on ${label}`, () => {
      const printed = run(node, [binPath, '--version'], directory).trim();
      if (printed !== version) throw new Error(`printed ${printed}, packed as ${version}`);
    });
    try {
      await listToolsOverStdio(node, binPath, bin, startArguments[bin]?.(directory) ?? [], version);
      passed++;
      console.log(`  ok   ${bin} answers initialize and tools/list over stdio on ${label}`);
    } catch (error) {
      failures.push(String(error));
      console.log(`  FAIL ${bin} on ${label}: ${String(error)}`);
    }
  }
}

const packageDirs = ['packages', 'apps']
  .filter((group) => existsSync(join(root, group)))
  .flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, group, entry.name)),
  );
const publishable = packageDirs
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson }))
  .filter(({ manifest }) => manifest.private !== true);

// Every package is packed with its version bumped: a bin that printed a version written anywhere but its
// package.json would show the old one. The manifests are put back as they were however the packing ends.
const originalManifests = new Map(publishable.map(({ dir }) => [dir, readFileSync(join(dir, 'package.json'), 'utf8')]));
for (const { dir, manifest } of publishable) {
  manifest.version = `${manifest.version.replace(/-.*$/, '')}-packcheck.1`;
  writeFileSync(
    join(dir, 'package.json'),
    originalManifests.get(dir)?.replace(/"version": "[^"]+"/, `"version": "${manifest.version}"`) ?? '',
  );
}
const tarballs: { manifest: PackageJson; tarball: string }[] = [];
try {
  for (const { dir, manifest } of publishable) {
    console.log(`${manifest.name}@${manifest.version}`);
    const destination = join(work, 'tarballs');
    mkdirSync(destination, { recursive: true });
    const packed = run('pnpm', ['pack', '--pack-destination', destination], dir).trim().split('\n').at(-1) as string;
    const tarball = packed.startsWith('/') ? packed : join(destination, packed);
    tarballs.push({ manifest, tarball });
    const extracted = join(work, 'extracted', manifest.name);
    mkdirSync(extracted, { recursive: true });
    run('tar', ['-xzf', tarball, '-C', extracted], root);
    const packedManifest = JSON.parse(readFileSync(join(extracted, 'package', 'package.json'), 'utf8')) as PackageJson;
    check('published exports point at dist, not src', () => {
      if (JSON.stringify(packedManifest.exports).includes('/src/'))
        throw new Error(JSON.stringify(packedManifest.exports));
    });
    check('publint --strict', () =>
      run(join(root, 'node_modules/.bin/publint'), ['--strict', '--pack', 'false'], join(extracted, 'package')),
    );
    check('attw (esm-only)', () =>
      run(join(root, 'node_modules/.bin/attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], root),
    );
  }
} finally {
  for (const [dir, text] of originalManifests) writeFileSync(join(dir, 'package.json'), text);
}

const install = join(work, 'install');
mkdirSync(install, { recursive: true });
writeFileSync(join(install, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
console.log('installing the tarballs into an empty directory');
// ajv is the optional peer that @toolshed/mcp-core/testing needs.
run(
  'npm',
  [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--loglevel=error',
    'ajv@8',
    ...tarballs.map(({ tarball }) => tarball),
  ],
  install,
);

for (const { manifest } of tarballs) {
  const installedManifest = JSON.parse(
    readFileSync(join(install, 'node_modules', manifest.name, 'package.json'), 'utf8'),
  ) as PackageJson;
  for (const entry of Object.keys(installedManifest.exports ?? {})) {
    if (entry === './package.json') continue;
    const specifier = entry === '.' ? manifest.name : `${manifest.name}${entry.slice(1)}`;
    check(`import ${specifier}`, () =>
      run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], install),
    );
  }
  for (const bin of Object.keys(installedManifest.bin ?? {})) {
    check(`${bin} --help`, () => {
      const help = run(
        process.execPath,
        [join(install, 'node_modules', manifest.name, installedManifest.bin?.[bin] ?? ''), '--help'],
        install,
      );
      if (!help.includes('Usage:')) throw new Error(`no usage in: ${help}`);
    });
  }
}
await startBins(process.execPath, install, `Node ${process.versions.node}`);

/**
 * A script for the install directory: `setup` defines `server` (and may import), then one tools/call goes to
 * it over an in-memory pair after initialize; `verdict` reads `answers` and exits 1 when they are wrong.
 */
function inMemoryCallScript(setup: string, call: Record<string, unknown>, verdict: string): string {
  return `
import { createInMemoryTransportPair } from '@toolshed/mcp-core';
${setup}
const [client, serverSide] = createInMemoryTransportPair();
await server.connect(serverSide);
const answers = [];
client.onmessage = (message) => answers.push(message);
await client.start();
await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: ${JSON.stringify(call)} });
for (let waited = 0; answers.length < 2 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
await server.close();
${verdict}
`;
}

function checkInMemoryCall(packageName: string, label: string, script: string): void {
  if (!tarballs.some(({ manifest }) => manifest.name === packageName)) return;
  const file = `smoke-${packageName.replace(/\W+/g, '-').replace(/^-/, '')}.mjs`;
  writeFileSync(join(install, file), script);
  check(label, () => {
    run(process.execPath, [file], install);
  });
}

// mcp-core has no bin: serve a tool from the installed package and call it.
checkInMemoryCall(
  '@toolshed/mcp-core',
  '@toolshed/mcp-core serves a tool from the installed tarball',
  inMemoryCallScript(
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
);

// The query process is a separate file the server forks: run a query through the installed package.
checkInMemoryCall(
  '@toolshed/server-sql',
  '@toolshed/server-sql runs a query in its query process from the installed tarball',
  inMemoryCallScript(
    `import { createSqlServer } from '@toolshed/server-sql';
const server = createSqlServer({ databases: { empty: 'empty.db' } });`,
    { name: 'query', arguments: { sql: 'SELECT 6 * 7' } },
    `if (JSON.stringify(answers[1]?.result?.structuredContent?.rows) !== '[[42]]') { console.error(JSON.stringify(answers)); process.exit(1); }`,
  ),
);

// The regex worker is a separate file the server starts: search by regular expression through the installed package.
checkInMemoryCall(
  '@toolshed/server-filesystem',
  '@toolshed/server-filesystem searches file contents in its regex worker from the installed tarball',
  inMemoryCallScript(
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
);

// undici is the weather server's one runtime dependency beyond mcp-core and zod: fetch through it from the
// installed package, against a local upstream that answers as Open-Meteo's geocoding does.
checkInMemoryCall(
  '@toolshed/server-weather',
  '@toolshed/server-weather asks its upstream through undici from the installed tarball',
  inMemoryCallScript(
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
);

// nodemailer builds the message: write one to the outbox through the installed package and read it back.
checkInMemoryCall(
  '@toolshed/server-email',
  '@toolshed/server-email composes a message with nodemailer into its outbox from the installed tarball',
  inMemoryCallScript(
    `import { readdirSync, readFileSync } from 'node:fs';
import { createEmailServer } from '@toolshed/server-email';
const server = createEmailServer({ outboxDirectory: 'smoke-outbox', skipConfirmation: true, log: () => {} });`,
    { name: 'send_email', arguments: { to: 'outbox@toolshed.invalid', subject: 'Smoke ✓', text: 'Hello' } },
    `const files = readdirSync('smoke-outbox');
const eml = files.length === 1 ? readFileSync('smoke-outbox/' + files[0], 'utf8') : '';
if (answers[1]?.result?.structuredContent?.delivery !== 'outbox' || !eml.includes('Subject: =?UTF-8?Q?Smoke_=E2=9C=93?=')) { console.error(JSON.stringify(answers), eml); process.exit(1); }`,
  ),
);

// sharp is a native addon with per-platform binaries: make a thumbnail through the installed package.
checkInMemoryCall(
  '@toolshed/server-image',
  '@toolshed/server-image makes a thumbnail with sharp from the installed tarball',
  inMemoryCallScript(
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
);

// The host mounts our servers from their installed packages: serve one through it and call a tool.
checkInMemoryCall(
  '@toolshed/host',
  '@toolshed/host mounts @toolshed/server-sql from the installed tarballs and forwards a call',
  inMemoryCallScript(
    `import { createHost, parseHostConfig } from '@toolshed/host';
const host = createHost(parseHostConfig(JSON.stringify({ toolshed: { audit: { enabled: false } }, mcpServers: { '@toolshed/server-sql': { databases: 'empty.db' } } }), 'toolshed.json'));
await host.start();
const server = host.server;`,
    { name: 'sql_query', arguments: { sql: 'SELECT 6 * 7' } },
    `if (JSON.stringify(answers[1]?.result?.structuredContent?.rows) !== '[[42]]') { console.error(JSON.stringify(answers)); process.exit(1); }`,
  ),
);

// Where people find the servers: each server.json is what its package.json and bin say, and valid against the
// MCP Registry's schema; every tarball carries its license.
check('server.json files are up to date', () =>
  run(process.execPath, [join(root, 'scripts/write-server-json.ts'), '--check'], root),
);
{
  const { default: Ajv } = (await import(createRequire(join(install, 'package.json')).resolve('ajv'))) as {
    default: new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };
  };
  const validate = new Ajv({ strict: false, allErrors: true }).compile(
    JSON.parse(readFileSync(join(root, 'scripts/registry/server.schema.json'), 'utf8')),
  );
  for (const { dir } of publishable) {
    const manifest = JSON.parse(originalManifests.get(dir) ?? '{}') as PackageJson & { mcpName?: string };
    check(`${manifest.name} ships a LICENSE`, () => {
      if (!existsSync(join(work, 'extracted', manifest.name, 'package', 'LICENSE')))
        throw new Error('no LICENSE in the tarball');
    });
    if (manifest.mcpName === undefined) continue;
    check(`${manifest.name} server.json is valid for the MCP Registry and names this package`, () => {
      const entry = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'));
      if (!validate(entry)) throw new Error(JSON.stringify(validate.errors));
      const npm = entry.packages?.[0];
      if (
        entry.name !== manifest.mcpName ||
        entry.version !== manifest.version ||
        npm?.identifier !== manifest.name ||
        npm?.version !== manifest.version
      ) {
        throw new Error(`server.json says ${entry.name}@${entry.version} (${npm?.identifier}@${npm?.version})`);
      }
    });
  }
}

// One-click bundles: each server's .mcpb is built from its tarball, checked by the official mcpb tool, unpacked
// and started as a bundle host would start it — settings left blank pass through as unfilled placeholders, as some
// hosts do, and the server must take them as not set.
{
  const bundleNames = new Map(tarballs.map(({ manifest, tarball }) => [manifest.name, { manifest, tarball }]));
  const workspaceDependencies = (name: string, seen = new Set<string>()): Set<string> => {
    const dir = publishable.find(({ manifest }) => manifest.name === name)?.dir;
    const dependencies = dir === undefined ? {} : (JSON.parse(originalManifests.get(dir) ?? '{}').dependencies ?? {});
    for (const dependency of Object.keys(dependencies as Record<string, string>)) {
      if (!bundleNames.has(dependency) || seen.has(dependency)) continue;
      seen.add(dependency);
      workspaceDependencies(dependency, seen);
    }
    return seen;
  };
  for (const server of serverPackages.filter((candidate) => candidate.cli !== undefined)) {
    const dir = join(root, server.directory);
    const name = (JSON.parse(originalManifests.get(dir) ?? '{}') as PackageJson).name;
    const packed = bundleNames.get(name);
    if (packed === undefined) continue;
    const bundle = join(work, 'bundles', `${name.replace(/^@toolshed\//, '')}.mcpb`);
    let manifest: Record<string, unknown> | undefined;
    try {
      manifest = await buildMcpbBundle({
        server,
        tarball: packed.tarball,
        workspaceTarballs: [...workspaceDependencies(name)].map(
          (dependency) => bundleNames.get(dependency)?.tarball ?? '',
        ),
        staging: join(work, 'bundle-staging', name),
        output: bundle,
      });
      passed++;
      console.log(`  ok   ${name} .mcpb built and valid for the official mcpb tool`);
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string; message: string };
      failures.push(`${name} .mcpb: ${output.stdout ?? ''}${output.stderr ?? ''}${output.message}`);
      console.log(`  FAIL ${name} .mcpb: ${output.stdout ?? ''}${output.stderr ?? ''}${output.message}`);
      continue;
    }
    const unpacked = join(work, 'bundles-unpacked', name);
    const sample = join(work, 'bundle-sample', name);
    mkdirSync(sample, { recursive: true });
    writeFileSync(join(sample, 'empty.db'), '');
    const mcpConfig = (manifest.server as { mcp_config: { args: string[]; env: Record<string, string> } }).mcp_config;
    const userConfig = manifest.user_config as Record<string, { required?: boolean; type: string }>;
    // What a user fills in at install: the required settings only (a database file, or a directory).
    const sampleValue = (key: string) =>
      key === 'databases' || userConfig[key]?.type === 'file' ? join(sample, 'empty.db') : sample;
    const filled = (text: string) =>
      text
        .replace(`\${__dirname}`, unpacked)
        .replace(/\$\{user_config\.([a-z_]+)\}/g, (placeholder, key: string) =>
          userConfig[key]?.required === true ? sampleValue(key) : placeholder,
        );
    try {
      run(join(root, 'node_modules/.bin/mcpb'), ['unpack', bundle, unpacked], root);
      const [entry = '', ...args] = mcpConfig.args.map(filled);
      const env = {
        ...process.env,
        ...Object.fromEntries(Object.entries(mcpConfig.env).map(([key, value]) => [key, filled(value)])),
      };
      await listToolsOverStdio(process.execPath, entry, `${name} bundle`, args, packed.manifest.version, env);
      passed++;
      console.log(`  ok   ${name} starts from its unpacked .mcpb with only the required settings filled in`);
    } catch (error) {
      failures.push(`${name} bundle start: ${String(error)}`);
      console.log(`  FAIL ${name} bundle start: ${String(error)}`);
    }
  }
}

// The lowest Node the engines allow: fetched from the npm registry (node-<os>-<arch>), which then installs the
// tarballs itself, so native addons are built for it, and runs every bin.
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: string } };
const floor = /^>=(\d+\.\d+\.\d+)$/.exec(rootManifest.engines?.node ?? '')?.[1];
const nodePackage = `node-${process.platform}-${process.arch}`;
if (floor === undefined) {
  failures.push(`the root package.json's engines.node is not ">=X.Y.Z": ${rootManifest.engines?.node}`);
} else {
  const floorDirectory = join(root, '.toolchain', `node-${floor}`);
  const floorNode = join(floorDirectory, 'node_modules', nodePackage, 'bin', 'node');
  if (!existsSync(floorNode)) {
    console.log(`fetching Node ${floor} (${nodePackage}) from the npm registry`);
    run(
      'npm',
      [
        'install',
        '--silent',
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--prefix',
        floorDirectory,
        `${nodePackage}@${floor}`,
      ],
      root,
    );
  }
  const npmCli = join(dirname(realpathSync(run('sh', ['-c', 'command -v npm'], root).trim())), 'npm-cli.js');
  const floorInstall = join(work, 'install-floor');
  mkdirSync(floorInstall, { recursive: true });
  writeFileSync(
    join(floorInstall, 'package.json'),
    JSON.stringify({ name: 'pack-check-floor', private: true, type: 'module' }),
  );
  console.log(`installing the tarballs with Node ${floor}`);
  const floorEnv = {
    ...process.env,
    PATH: `${dirname(floorNode)}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: join(floorDirectory, 'node_modules', nodePackage),
  };
  check(`the tarballs install on Node ${floor}`, () =>
    run(
      floorNode,
      [
        npmCli,
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        ...tarballs.map(({ tarball }) => tarball),
      ],
      floorInstall,
      floorEnv,
    ),
  );
  await startBins(floorNode, floorInstall, `Node ${floor}`);

  // An older Node, when the machine has one: one line naming the version needed, never a crash.
  const machineNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path));
  const machineVersion = machineNode === undefined ? undefined : run(machineNode, ['--version'], root).trim().slice(1);
  const older = (version: string) => {
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [floorMajor = 0, floorMinor = 0] = floor.split('.').map(Number);
    return major < floorMajor || (major === floorMajor && minor < floorMinor);
  };
  if (machineNode !== undefined && machineVersion !== undefined && older(machineVersion)) {
    for (const [bin, binPath] of installedBins(install)) {
      check(`${bin} on Node ${machineVersion} says which Node it needs, in one line`, () => {
        const result = spawnSync(machineNode, [binPath, '--help'], { encoding: 'utf8' });
        const expected = `${bin} needs Node.js ${floor.replace(/\.0$/, '')} or newer; this is v${machineVersion}.\n`;
        if (result.status !== 1 || result.stderr !== expected || result.stdout !== '') {
          throw new Error(`exit ${result.status}, stderr ${JSON.stringify(result.stderr)}`);
        }
      });
    }
  } else {
    console.log(`  skip no Node older than ${floor} on this machine to refuse`);
  }
}

rmSync(work, { recursive: true, force: true });
writeFileSync(join(root, '.pack-check-results.json'), JSON.stringify({ passed, failed: failures.length }));
if (failures.length > 0) {
  console.log(`pack check: ${failures.length} failed`);
  process.exit(1);
}
console.log(`pack check: ${tarballs.length} packages packed, installed and started`);
