/**
 * Writes each server README's options table from the server's options
 * schema (between the options-table markers), by `@toolshed/dev`. The
 * packages' tests fail when a table is out of date; this brings it back.
 */
import { writeOptionsTables } from '../packages/dev/src/index.ts';
import { serverPackages, workspaceRoot } from './server-packages.ts';

const problems = await writeOptionsTables({ root: workspaceRoot, servers: serverPackages });
process.exitCode = problems > 0 ? 1 : 0;
