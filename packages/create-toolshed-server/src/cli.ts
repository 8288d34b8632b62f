/** The `create-toolshed-server` bin's entry. */
import { runCreateCli } from './run-create-cli.ts';

process.exitCode = await runCreateCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
});
