import type * as z from 'zod';
import { runCli } from './run-cli.ts';
import type { HttpCliValues } from './serve.ts';
import { type ServerCli, serverOptionsFromCli } from './server-cli.ts';

/**
 * A server bin's whole life: flags, environment and operands become the
 * server's checked options; --help and --version answer; a mistake exits 2
 * with one line naming the flag. `main` gets the options and the HTTP
 * values `serve` takes.
 *
 * @example
 * await runServerCli(sqlCli, process.argv.slice(2), process.env, (options, http) => serve(createSqlServer(options), http));
 */
export async function runServerCli<Schema extends z.ZodObject>(
  cli: ServerCli<Schema>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  main: (options: z.output<Schema>, http: HttpCliValues) => Promise<void>,
): Promise<void> {
  await runCli(cli.spec, argv, env, (values, operands) =>
    main(serverOptionsFromCli(cli, values, operands, env), values as HttpCliValues),
  );
}
