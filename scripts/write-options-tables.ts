/**
 * Writes each server README's options table from the server's options
 * schema (between the options-table markers). The packages' tests fail when
 * a table is out of date; this brings it back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withOptionsTable } from '../packages/mcp-core/src/index.ts';

const bins: readonly [directory: string, module: string, exportName: string][] = [
  ['packages/server-sql', 'src/sql-cli.ts', 'sqlCli'],
  ['packages/server-email', 'src/email-cli.ts', 'emailCli'],
  ['packages/server-image', 'src/image-cli.ts', 'imageCli'],
  ['packages/server-filesystem', 'src/filesystem-cli.ts', 'filesystemCli'],
  ['packages/server-weather', 'src/weather-cli.ts', 'weatherCli'],
];

let failed = false;
for (const [directory, module, exportName] of bins) {
  const cli = (await import(new URL(`../${directory}/${module}`, import.meta.url).href))[exportName];
  const readmePath = new URL(`../${directory}/README.md`, import.meta.url);
  const readme = readFileSync(readmePath, 'utf8');
  const updated = withOptionsTable(readme, cli);
  if (updated === undefined) {
    process.stderr.write(`${directory}/README.md has no options-table markers\n`);
    failed = true;
  } else if (updated !== readme) {
    writeFileSync(readmePath, updated);
    process.stdout.write(`${directory}/README.md: options table written\n`);
  }
}
process.exitCode = failed ? 1 : 0;
