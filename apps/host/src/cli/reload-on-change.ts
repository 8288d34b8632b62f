import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { HostConfig } from '../config/host-config.ts';
import type { Host, ReloadSummary } from '../create-host.ts';

export interface ReloadOnChangeOptions {
  /** The config file to watch; undefined (the embedded defaults) watches nothing, SIGHUP still reloads. */
  path: string | undefined;
  /** Reads the config again. */
  load(): HostConfig;
  log(line: string): void;
  /** How long a burst of file events (an editor's write, rename and chmod) is waited out. Default 200 ms. */
  settleMs?: number | undefined;
}

function describe(summary: ReloadSummary): string {
  const parts = [
    ['started', summary.added],
    ['restarted', summary.restarted],
    ['stopped', summary.removed],
  ] as const;
  const moved = parts.filter(([, names]) => names.length > 0).map(([verb, names]) => `${verb} ${names.join(', ')}`);
  const unchanged = `${summary.unchanged.length} unchanged`;
  return moved.length === 0 ? `nothing changed (${unchanged})` : `${moved.join('; ')}; ${unchanged}`;
}

/**
 * Reloads the host on SIGHUP and whenever its config file changes. Reloads
 * run one at a time; a config that cannot be read or is wrong is reported
 * and the host keeps running as it was. The directory is watched rather
 * than the file, since editors replace a file by renaming a new one over it.
 */
export function reloadOnChange(host: Host, options: ReloadOnChangeOptions): { close(): void } {
  let queue: Promise<void> = Promise.resolve();
  const reload = (why: string) => {
    queue = queue.then(async () => {
      try {
        const summary = await host.reload(options.load());
        options.log(`reloaded on ${why}: ${describe(summary)}`);
      } catch (error) {
        options.log(
          `not reloaded on ${why}, still serving the previous config: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  };
  const onSignal = () => reload('SIGHUP');
  process.on('SIGHUP', onSignal);
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (options.path !== undefined) {
    const path = resolve(options.path);
    try {
      watcher = watch(dirname(path), (_event, name) => {
        if (name !== basename(path)) return;
        clearTimeout(timer);
        timer = setTimeout(() => reload('a change to the config file'), options.settleMs ?? 200);
      });
      watcher.on('error', () => {});
      watcher.unref();
    } catch (error) {
      options.log(
        `the config file is not watched (${error instanceof Error ? error.message : String(error)}); send SIGHUP to reload`,
      );
    }
  }
  return {
    close() {
      process.off('SIGHUP', onSignal);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
