import type * as z from 'zod';
import { startTelemetry } from '../telemetry/process-telemetry.ts';
import { runCli } from './run-cli.ts';
import type { HttpCliValues } from './serve.ts';
import { type ServerCli, serverOptionsFromCli } from './server-cli.ts';

/**
 * A server bin's whole life: flags, environment and operands become the
 * server's checked options; --help and --version answer; a mistake exits 2
 * with one line naming the flag. Telemetry starts first when `--metrics`
 * or the `OTEL_*` variables ask for it. `main` gets the options and the
 * HTTP values `serve` takes.
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
  await runCli(cli.spec, argv, env, async (values, operands) => {
    const options = serverOptionsFromCli(cli, values, operands, env);
    const http = values as HttpCliValues;
    const { metricsUrl } = await startTelemetry({ serviceName: cli.definition.name, env, metrics: http.metrics });
    if (metricsUrl !== undefined) process.stderr.write(`${cli.definition.name} serving metrics at ${metricsUrl}\n`);
    await main(options, http);
  });
}
