/** The `toolshed-dev` bin's entry: one command in the current directory, errors as one line. */
import { runDevCli } from './dev-cli.ts';

try {
  process.exitCode = await runDevCli(process.argv.slice(2), process.cwd());
} catch (error) {
  process.stderr.write(`toolshed-dev: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
