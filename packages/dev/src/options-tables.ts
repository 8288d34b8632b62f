/**
 * Writes each server README's options table from the server's options
 * schema, between the options-table markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withOptionsTable } from '@toolshed/mcp-core';
import { loadServerCli, type ServerPackage } from './server-package.ts';

export interface WriteOptionsTablesOptions {
  root: string;
  servers: readonly ServerPackage[];
  /** Write nothing; report each README that is out of date. */
  check?: boolean;
}

/**
 * Brings each server's README options table up to date (or with `check`,
 * reports the stale ones); returns the number of problems: READMEs without
 * markers, and when checking, stale tables.
 *
 * @example
 * await writeOptionsTables({ root: process.cwd(), servers });
 */
export async function writeOptionsTables(options: WriteOptionsTablesOptions): Promise<number> {
  const { root, servers, check = false } = options;
  let problems = 0;
  for (const server of servers) {
    const cli = await loadServerCli(root, server);
    if (cli === undefined) continue;
    const readmePath = join(root, server.directory, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const updated = withOptionsTable(readme, cli);
    const shown = join(server.directory, 'README.md');
    if (updated === undefined) {
      process.stderr.write(`${shown} has no options-table markers\n`);
      problems++;
    } else if (updated !== readme && check) {
      process.stderr.write(`${shown}: the options table is out of date\n`);
      problems++;
    } else if (updated !== readme) {
      writeFileSync(readmePath, updated);
      process.stdout.write(`${shown}: options table written\n`);
    }
  }
  return problems;
}
