/**
 * The pack check: packs every publishable package as npm would receive it —
 * with its version bumped, so every bin must report the version it was
 * packed with — lints the tarball (publint, attw), installs all tarballs into
 * an empty directory, imports every entry point and starts every bin:
 * `--help`, then for servers `--version` and initialize and tools/list over
 * stdio. Then each server's `server.json` against the registry's schema, its
 * `.mcpb` built and started, and the bins on the lowest Node the engines
 * allow, installed by that Node, and on an older Node (the machine's, when it
 * is older), where each must refuse in one line.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFloor } from '../package-manifest.ts';
import { writeServerJsonFiles } from '../server-json.ts';
import { serverJsonProblems } from '../server-json-schema.ts';
import type { ServerPackage } from '../server-package.ts';
import { type BundleSampleValue, checkBundles } from './bundle-checks.ts';
import { createCheckLog } from './check-log.ts';
import type { SmokeCheck } from './in-memory-call-script.ts';
import { installedBins } from './installed-bins.ts';
import { checkNodeFloor } from './node-floor-checks.ts';
import { packTarballs, publishablePackages } from './pack-tarballs.ts';
import { runCommand } from './run-command.ts';
import { listToolsOverStdio } from './stdio-tools-probe.ts';

export interface PackCheckOptions {
  /** The project root. */
  root: string;
  /** The server packages: their `server.json` and `.mcpb` are checked. */
  servers: readonly ServerPackage[];
  /** The packages to pack, relative to the root; by default every public package of `packages/` and `apps/`, or the root. */
  packageDirectories?: readonly string[];
  /** What a server bin needs on its command line to start, by bin name, given an empty directory. */
  startArguments?: Readonly<Record<string, (directory: string) => string[]>>;
  /** Calls through the installed packages. */
  smokeChecks?: readonly SmokeCheck[];
  /** Extra packages installed beside the tarballs (an optional peer a smoke check needs). */
  extraInstalls?: readonly string[];
  /**
   * Tarballs of dependencies not on the registry yet (a sibling project's packed packages), installed with the
   * packed ones everywhere: beside them, into each bundle and on the lowest Node.
   */
  dependencyTarballs?: readonly string[];
  /** The command that rewrites `server.json`, named when one is out of date. */
  serverJsonCommand?: string;
  /** A bundle's author when package.json names none. */
  author?: string;
  /** What a bundle's required setting is filled with when it is started. */
  bundleSampleValue?: BundleSampleValue;
  /** Where the lowest allowed Node is kept between runs; `.toolchain` in the root unless given. */
  toolchainDirectory?: string;
  /** Skip the run on the lowest allowed Node (it is fetched from the registry once). */
  skipNodeFloor?: boolean;
  /** A file that receives `{ passed, failed }`. */
  resultsFile?: string;
}

export interface PackCheckResult {
  passed: number;
  failures: readonly string[];
}

/**
 * Runs the pack check and prints each check as it ends.
 *
 * @example
 * const { failures } = await runPackCheck({ root: process.cwd(), servers });
 * process.exitCode = failures.length > 0 ? 1 : 0;
 */
export async function runPackCheck(options: PackCheckOptions): Promise<PackCheckResult> {
  const { root, servers, startArguments = {}, smokeChecks = [] } = options;
  const work = mkdtempSync(join(tmpdir(), 'toolshed-pack-'));
  const log = createCheckLog();
  const publishable = publishablePackages(root, options.packageDirectories);
  const packed = packTarballs(root, publishable, work, log);

  const install = join(work, 'install');
  mkdirSync(install, { recursive: true });
  writeFileSync(join(install, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
  console.log('installing the tarballs into an empty directory');
  runCommand(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
      ...(options.extraInstalls ?? []),
      ...(options.dependencyTarballs ?? []),
      ...packed.map(({ tarball }) => tarball),
    ],
    install,
  );

  for (const { manifest } of packed) {
    const installedManifest = JSON.parse(
      readFileSync(join(install, 'node_modules', manifest.name, 'package.json'), 'utf8'),
    ) as { exports?: Record<string, unknown>; bin?: Record<string, string> };
    for (const entry of Object.keys(installedManifest.exports ?? {})) {
      if (entry === './package.json') continue;
      const specifier = entry === '.' ? manifest.name : `${manifest.name}${entry.slice(1)}`;
      log.check(`import ${specifier}`, () =>
        runCommand(
          process.execPath,
          ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`],
          install,
        ),
      );
    }
    for (const bin of Object.keys(installedManifest.bin ?? {})) {
      log.check(`${bin} --help`, () => {
        const help = runCommand(
          process.execPath,
          [join(install, 'node_modules', manifest.name, installedManifest.bin?.[bin] ?? ''), '--help'],
          install,
        );
        if (!help.includes('Usage:')) throw new Error(`no usage in: ${help}`);
      });
    }
  }

  /** Starts every server bin on `node`: its version, then initialize and tools/list. */
  const startBins = async (node: string, directory: string, label: string): Promise<void> => {
    for (const { bin, path, version } of installedBins(packed, directory).filter(({ server }) => server)) {
      log.check(`${bin} --version on ${label}`, () => {
        const printed = runCommand(node, [path, '--version'], directory).trim();
        if (printed !== version) throw new Error(`printed ${printed}, packed as ${version}`);
      });
      await log.checkAsync(`${bin} answers initialize and tools/list over stdio on ${label}`, () =>
        listToolsOverStdio({
          node,
          binPath: path,
          name: bin,
          args: startArguments[bin]?.(directory) ?? [],
          version,
        }),
      );
    }
  };
  await startBins(process.execPath, install, `Node ${process.versions.node}`);

  for (const smoke of smokeChecks) {
    if (!packed.some(({ manifest }) => manifest.name === smoke.packageName)) continue;
    const file = `smoke-${smoke.packageName.replace(/\W+/g, '-').replace(/^-/, '')}.mjs`;
    writeFileSync(join(install, file), smoke.script);
    log.check(smoke.label, () => {
      runCommand(process.execPath, [file], install);
    });
  }

  // Where people find the servers: each server.json is what its package.json and bin say, and valid against the
  // MCP Registry's schema; every tarball carries its license.
  await log.checkAsync('server.json files are up to date', async () => {
    const stale = await writeServerJsonFiles({
      root,
      servers: servers.filter((server) =>
        publishable.some(({ directory }) => directory === join(root, server.directory)),
      ),
      check: true,
      ...(options.serverJsonCommand === undefined ? {} : { command: options.serverJsonCommand }),
    });
    if (stale > 0) throw new Error(`${stale} out of date`);
  });
  for (const { directory, manifest, extracted } of packed) {
    log.check(`${manifest.name} ships a LICENSE`, () => {
      if (!existsSync(join(extracted, 'LICENSE'))) throw new Error('no LICENSE in the tarball');
    });
    if (manifest.mcpName === undefined) continue;
    log.check(`${manifest.name} server.json is valid for the MCP Registry and names this package`, () => {
      const problems = serverJsonProblems(JSON.parse(readFileSync(join(directory, 'server.json'), 'utf8')), manifest);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
  }

  await checkBundles({
    root,
    servers,
    packed,
    work,
    log,
    dependencyTarballs: options.dependencyTarballs ?? [],
    ...(options.author === undefined ? {} : { author: options.author }),
    ...(options.bundleSampleValue === undefined ? {} : { sampleValue: options.bundleSampleValue }),
  });

  if (options.skipNodeFloor !== true) {
    const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      engines?: { node?: string };
    };
    const floor = nodeFloor({ engines: { node: rootManifest.engines?.node ?? '' } });
    if (floor === undefined) {
      log.fail(`the root package.json's engines.node is not ">=X.Y.Z": ${rootManifest.engines?.node}`);
    } else {
      await checkNodeFloor({
        root,
        floor,
        toolchainDirectory: options.toolchainDirectory ?? join(root, '.toolchain'),
        packed,
        install,
        work,
        log,
        startBins,
        dependencyTarballs: options.dependencyTarballs ?? [],
      });
    }
  }

  rmSync(work, { recursive: true, force: true });
  if (options.resultsFile !== undefined) {
    writeFileSync(options.resultsFile, JSON.stringify({ passed: log.passed, failed: log.failures.length }));
  }
  if (log.failures.length > 0) console.log(`pack check: ${log.failures.length} failed`);
  else console.log(`pack check: ${packed.length} packages packed, installed and started`);
  return { passed: log.passed, failures: log.failures };
}
