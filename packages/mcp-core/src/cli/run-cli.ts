import { LocalError } from '../errors/local-error.ts';
import type { CliOptionSpec, CliSpec, CliValues } from './cli-spec.ts';
import { formatCliHelp } from './format-cli-help.ts';
import { parseCliOptions } from './parse-cli-options.ts';

/**
 * A bin's whole life: parse flags and environment, print --help or
 * --version, or run `main` with typed options. Configuration errors exit 2
 * with one line on stderr, never a stack trace.
 *
 * @example
 * await runCli(cli, process.argv.slice(2), process.env, (options) => serveStdio(createSqlServer(options)));
 */
export async function runCli<Options extends Record<string, CliOptionSpec>>(
  spec: CliSpec<Options>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  main: (options: CliValues<Options>, operands: string[]) => Promise<void>,
): Promise<void> {
  try {
    const command = parseCliOptions(spec, argv, env);
    if (command.kind === 'help') {
      process.stdout.write(formatCliHelp(spec));
      return;
    }
    if (command.kind === 'version') {
      process.stdout.write(`${spec.version}\n`);
      return;
    }
    await main(command.options, command.operands ?? []);
  } catch (error) {
    if (LocalError.isInstance(error) && error.code === 'config_invalid') {
      process.stderr.write(`${spec.name}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
