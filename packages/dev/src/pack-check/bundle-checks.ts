/**
 * One-click bundles in the pack check: each server's .mcpb is built from its
 * tarball, checked by the official mcpb tool, unpacked and started as a
 * bundle host would start it — settings left blank pass through as unfilled
 * placeholders, as some hosts do, and the server must take them as not set.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dependencyBin } from '../dependency-bin.ts';
import { buildMcpbBundle } from '../mcpb-bundle.ts';
import type { ServerPackage } from '../server-package.ts';
import type { CheckLog } from './check-log.ts';
import type { PackedPackage } from './pack-tarballs.ts';
import { runCommand } from './run-command.ts';
import { listToolsOverStdio } from './stdio-tools-probe.ts';

type UserConfig = Record<string, { required?: boolean; type: string }>;

/** What a user fills in for a required setting at install, in a sample directory that holds an empty file `empty.db`. */
export type BundleSampleValue = (key: string, setting: UserConfig[string], sampleDirectory: string) => string;

const defaultSampleValue: BundleSampleValue = (_key, setting, sampleDirectory) =>
  setting.type === 'file' ? join(sampleDirectory, 'empty.db') : sampleDirectory;

export interface BundleChecksInput {
  root: string;
  servers: readonly ServerPackage[];
  packed: readonly PackedPackage[];
  work: string;
  log: CheckLog;
  author?: string;
  sampleValue?: BundleSampleValue;
  /** Tarballs of dependencies not on the registry yet, installed into each bundle. */
  dependencyTarballs?: readonly string[];
}

/** The packed packages a package depends on, transitively: a bundle installs them from their tarballs. */
function packedDependencies(packed: readonly PackedPackage[], name: string, seen = new Set<string>()): Set<string> {
  const dependencies = packed.find(({ manifest }) => manifest.name === name)?.manifest.dependencies ?? {};
  for (const dependency of Object.keys(dependencies)) {
    if (!packed.some(({ manifest }) => manifest.name === dependency) || seen.has(dependency)) continue;
    seen.add(dependency);
    packedDependencies(packed, dependency, seen);
  }
  return seen;
}

export async function checkBundles(input: BundleChecksInput): Promise<void> {
  const { root, servers, packed, work, log, sampleValue = defaultSampleValue } = input;
  for (const server of servers.filter((candidate) => candidate.cli !== undefined)) {
    const serverPackage = packed.find(({ directory }) => directory === join(root, server.directory));
    if (serverPackage === undefined) continue;
    const name = serverPackage.manifest.name;
    const bundle = join(work, 'bundles', `${name.replace(/^@[^/]+\//, '')}.mcpb`);
    let manifest: Record<string, unknown> | undefined;
    try {
      manifest = await buildMcpbBundle({
        root,
        server,
        tarball: serverPackage.tarball,
        workspaceTarballs: [
          ...(input.dependencyTarballs ?? []),
          ...[...packedDependencies(packed, name)].map(
            (dependency) => packed.find(({ manifest: other }) => other.name === dependency)?.tarball ?? '',
          ),
        ],
        staging: join(work, 'bundle-staging', name),
        output: bundle,
        ...(input.author === undefined ? {} : { author: input.author }),
      });
      log.check(`${name} .mcpb built and valid for the official mcpb tool`, () => {});
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string; message: string };
      log.fail(`${name} .mcpb: ${output.stdout ?? ''}${output.stderr ?? ''}${output.message}`);
      continue;
    }
    const unpacked = join(work, 'bundles-unpacked', name);
    const sample = join(work, 'bundle-sample', name);
    mkdirSync(sample, { recursive: true });
    writeFileSync(join(sample, 'empty.db'), '');
    const mcpConfig = (
      manifest.server as { mcp_config: { command: string; args: string[]; env: Record<string, string> } }
    ).mcp_config;
    const userConfig = manifest.user_config as UserConfig;
    // What a user fills in at install: the required settings only.
    const filled = (text: string) =>
      text.replace(`\${__dirname}`, unpacked).replace(/\$\{user_config\.([a-z_]+)\}/g, (placeholder, key: string) => {
        const setting = userConfig[key];
        return setting?.required === true ? sampleValue(key, setting, sample) : placeholder;
      });
    await log.checkAsync(
      `${name} starts from its unpacked .mcpb with only the required settings filled in`,
      async () => {
        runCommand(process.execPath, [dependencyBin('@anthropic-ai/mcpb', 'mcpb'), 'unpack', bundle, unpacked], root);
        // A bundle with native addons starts through its launcher script, which finds the Node on PATH.
        const [entry = '', ...args] = mcpConfig.args.map(filled);
        const env = {
          ...process.env,
          ...Object.fromEntries(Object.entries(mcpConfig.env).map(([key, value]) => [key, filled(value)])),
        };
        await listToolsOverStdio({
          node: mcpConfig.command === 'node' ? process.execPath : mcpConfig.command,
          binPath: entry,
          name: `${name} bundle`,
          args,
          version: serverPackage.packedVersion,
          env,
        });
      },
    );
  }
}
