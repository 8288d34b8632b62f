import { join } from 'node:path';
import type { HostConfig } from '../config/host-config.ts';
import { stateDirectory } from '../state-directory.ts';
import { ensureSampleData } from './sample-data.ts';

/**
 * What the host serves with no config file: all five of our servers, in
 * process, on safe local defaults — a sample library database (read-only
 * SQL), a sample workspace for files and images, email into an outbox
 * (nothing is sent), and live weather (a clear error when offline).
 */
export function embeddedDefaults(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const state = stateDirectory(env);
  const sample = ensureSampleData(join(state, 'sample'));
  return {
    source: 'embedded defaults',
    options: {
      separator: '_',
      audit: { enabled: true, maxBytes: 10 * 1024 * 1024, files: 5 },
      maxRestarts: 5,
      toolList: 'full',
      approval: { mode: 'elicit-or-console', consoleTimeLimitMs: 5 * 60_000 },
    },
    servers: [
      {
        name: 'sql',
        kind: 'package',
        package: '@toolshed/server-sql',
        options: { databases: { library: sample.database } },
      },
      {
        name: 'files',
        kind: 'package',
        package: '@toolshed/server-filesystem',
        options: { directories: [sample.workspace] },
      },
      { name: 'weather', kind: 'package', package: '@toolshed/server-weather', options: {} },
      {
        name: 'email',
        kind: 'package',
        package: '@toolshed/server-email',
        options: { outboxDirectory: sample.outbox },
        // The email server asks the user before every send itself; the host does not ask twice.
        approval: { skip: ['send_email'] },
      },
      {
        name: 'image',
        kind: 'package',
        package: '@toolshed/server-image',
        options: { directories: [sample.workspace], outputDirectory: sample.imagesOut },
      },
    ],
  };
}
