import { existsSync } from 'node:fs';
import type { HostConfig } from '../config/host-config.ts';
import { loadHostConfig } from '../config/load-config.ts';
import { createHost, type Host } from '../create-host.ts';
import { embeddedDefaults } from '../defaults/embedded-defaults.ts';

/** The config a command runs on: `--config`, else `./toolshed.json` when present, else the embedded defaults. */
export function resolveConfig(path: string | undefined, env: NodeJS.ProcessEnv): HostConfig {
  if (path !== undefined) return loadHostConfig(path, env);
  if (existsSync('toolshed.json')) return loadHostConfig('toolshed.json', env);
  return embeddedDefaults(env);
}

/** A started host, with a one-line summary of it on stderr. */
export async function startHost(config: HostConfig, env: NodeJS.ProcessEnv, state?: string | undefined): Promise<Host> {
  const host = createHost(config, { env, state });
  await host.start();
  const up = host.upstreams.filter((upstream) => upstream.state === 'up').length;
  process.stderr.write(
    `toolshed: ${up} of ${host.upstreams.length} servers up from ${config.source}, ${host.tools().length} tools` +
      `; state in ${host.store().location}${host.auditPath === undefined ? '' : `; audit log ${host.auditPath}`}\n`,
  );
  return host;
}
