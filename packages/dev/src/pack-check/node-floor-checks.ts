/**
 * The lowest Node the engines allow: fetched from the npm registry
 * (node-<os>-<arch>), which then installs the tarballs itself, so native
 * addons are built for it, and runs every server bin. Then an older Node
 * (the machine's, when it is older), where each bin must refuse in one line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CheckLog } from './check-log.ts';
import { installedBins } from './installed-bins.ts';
import type { PackedPackage } from './pack-tarballs.ts';
import { runCommand } from './run-command.ts';

export interface NodeFloorInput {
  root: string;
  floor: string;
  /** Where the floor Node is kept between runs. */
  toolchainDirectory: string;
  packed: readonly PackedPackage[];
  /** The directory the tarballs were installed into on the current Node. */
  install: string;
  work: string;
  log: CheckLog;
  startBins: (node: string, directory: string, label: string) => Promise<void>;
  /** Tarballs of dependencies not on the registry yet, installed with the packed ones. */
  dependencyTarballs: readonly string[];
}

function older(version: string, floor: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [floorMajor = 0, floorMinor = 0] = floor.split('.').map(Number);
  return major < floorMajor || (major === floorMajor && minor < floorMinor);
}

export async function checkNodeFloor(input: NodeFloorInput): Promise<void> {
  const { root, floor, toolchainDirectory, packed, install, work, log } = input;
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const floorDirectory = join(toolchainDirectory, `node-${floor}`);
  const floorNode = join(floorDirectory, 'node_modules', nodePackage, 'bin', 'node');
  if (!existsSync(floorNode)) {
    console.log(`fetching Node ${floor} (${nodePackage}) from the npm registry`);
    runCommand(
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
  const npmCli = join(dirname(realpathSync(runCommand('sh', ['-c', 'command -v npm'], root).trim())), 'npm-cli.js');
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
  const failedBefore = log.failures.length;
  log.check(`the tarballs install on Node ${floor}`, () =>
    runCommand(
      floorNode,
      [
        npmCli,
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        ...input.dependencyTarballs,
        ...packed.map(({ tarball }) => tarball),
      ],
      floorInstall,
      floorEnv,
    ),
  );
  // Nothing to start when the install failed; the failure above says why.
  if (log.failures.length === failedBefore) await input.startBins(floorNode, floorInstall, `Node ${floor}`);

  // An older Node, when the machine has one: one line naming the version needed, never a crash.
  const machineNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => existsSync(path));
  const machineVersion =
    machineNode === undefined ? undefined : runCommand(machineNode, ['--version'], root).trim().slice(1);
  if (machineNode === undefined || machineVersion === undefined || !older(machineVersion, floor)) {
    console.log(`  skip no Node older than ${floor} on this machine to refuse`);
    return;
  }
  for (const { bin, path } of installedBins(packed, install).filter(({ server }) => server)) {
    log.check(`${bin} on Node ${machineVersion} says which Node it needs, in one line`, () => {
      const result = spawnSync(machineNode, [path, '--help'], { encoding: 'utf8' });
      const expected = `${bin} needs Node.js ${floor.replace(/\.0$/, '')} or newer; this is v${machineVersion}.\n`;
      if (result.status !== 1 || result.stderr !== expected || result.stdout !== '') {
        throw new Error(`exit ${result.status}, stderr ${JSON.stringify(result.stderr)}`);
      }
    });
  }
}
