/**
 * The `toolshed` bin: `serve` (the default), `tools`, `call` and `selftest`,
 * on a config file or, without one, the embedded defaults.
 */

import { existsSync } from 'node:fs';
import {
  type CallToolResult,
  defineCli,
  httpCliOptions,
  LocalError,
  runCli,
  serve,
  startTelemetry,
} from '@toolshed/mcp-core';
import { connectCliClient } from './cli/host-client.ts';
import { resolveConfig, startHost } from './cli/load-host.ts';
import { formatResult } from './cli/print-result.ts';
import { reloadOnChange } from './cli/reload-on-change.ts';
import { runSelftest } from './cli/selftest-command.ts';
import { checkConsoleOptions, consoleCliOptions, startConsole } from './cli/start-console.ts';
import { toolCallParams } from './cli/tool-call-params.ts';
import { formatToolTable, startFailures } from './cli/tools-command.ts';
import { capYoungGeneration, youngGenerationSemiSpaceMiB } from './cli/young-generation-cap.ts';
import { hostVersion } from './host-version.ts';
import { loadHostTelemetry } from './telemetry/host-telemetry.ts';
import { UpstreamRpcError } from './upstream/upstream-errors.ts';

const version = hostVersion;
const configOption = {
  state: {
    type: 'string',
    env: 'TOOLSHED_STATE_URL',
    placeholder: 'URL',
    description:
      'Where the host keeps approvals, the audit record, logins, rate budgets and idempotency keys: postgres://user@host/db for replicas (password from PGPASSWORD), or a SQLite file. Default $XDG_STATE_HOME/toolshed/state.db',
  },
  config: {
    type: 'string',
    env: 'TOOLSHED_CONFIG',
    placeholder: 'FILE',
    description:
      'A config file: {"mcpServers": {...}} or {"servers": {...}}. Default ./toolshed.json, else the embedded defaults (all five Toolshed servers on sample data)',
  },
} as const;

const replicaOption = {
  replicaUrl: {
    type: 'string',
    env: 'TOOLSHED_REPLICA_URL',
    placeholder: 'URL',
    description:
      "Where the other replicas reach this one's MCP endpoint, to relay a caller's retry to the replica holding its call. Default the --http address (give this when it is 0.0.0.0)",
  },
} as const;

const commands = {
  serve: defineCli({
    name: 'toolshed serve',
    version,
    summary: 'Serve every configured MCP server behind one endpoint, over stdio or Streamable HTTP',
    options: { ...configOption, ...httpCliOptions, ...consoleCliOptions, ...replicaOption },
    examples: [
      'toolshed serve',
      'toolshed serve --config ~/.config/toolshed.json --http 127.0.0.1:3000',
      'toolshed serve --console 3100',
    ],
  }),
  tools: defineCli({
    name: 'toolshed tools',
    version,
    summary: 'Start the configured servers and list their tools by server, with annotations',
    options: configOption,
    examples: ['toolshed tools', 'toolshed tools --config claude_desktop_config.json'],
  }),
  call: defineCli({
    name: 'toolshed call',
    version,
    summary: 'Call one tool and print its result; the exit code is 1 when the result is an error',
    operands: {
      placeholder: 'TOOL JSON',
      description: 'The tool as `toolshed tools` names it, and its arguments as JSON',
    },
    options: configOption,
    examples: [`toolshed call sql_query '{"sql": "SELECT title, year FROM books ORDER BY year"}'`],
  }),
  selftest: defineCli({
    name: 'toolshed selftest',
    version,
    summary: 'Start every server, call the read-only tools that need no arguments, stop, and check no process is left',
    options: configOption,
    examples: ['toolshed selftest', 'toolshed selftest --config toolshed.json'],
  }),
};

const overview = `toolshed ${version} — one MCP endpoint for many servers

Usage: toolshed [serve|tools|call|selftest] [options]
  serve     serve every configured server over stdio (default) or --http HOST:PORT
  tools     list the tools by server, with annotations
  call      call one tool: toolshed call TOOL JSON
  selftest  start, call the safe tools, stop, check no process is left

Without --config (or TOOLSHED_CONFIG, or ./toolshed.json) the host serves all five Toolshed servers on sample data.
Run toolshed COMMAND --help for a command's options.
`;

const argv = process.argv.slice(2);
const [first] = argv;
const named = first !== undefined && !first.startsWith('-');
const name = named ? first : 'serve';
const rest = named ? argv.slice(1) : argv;
const env = process.env;

if (argv.length === 1 && (first === '--help' || first === '-h')) {
  process.stdout.write(overview);
} else if (argv.length === 1 && first === '--version') {
  process.stdout.write(`${version}\n`);
} else if (name === 'serve') {
  await runCli(commands.serve, rest, env, async (values) => {
    checkConsoleOptions(values);
    // A long-running server under load: see young-generation-cap.ts for why, and the README for the figures.
    const stopCapping = capYoungGeneration({
      semiSpaceMiB: youngGenerationSemiSpaceMiB,
      execArgv: process.execArgv,
      nodeOptions: env.NODE_OPTIONS,
    });
    // Before the host and the packages it mounts are created, so that their servers report through it.
    const { metricsUrl } = await startTelemetry({ serviceName: 'toolshed', env, metrics: values.metrics });
    if (metricsUrl !== undefined) process.stderr.write(`toolshed: serving metrics at ${metricsUrl}\n`);
    await loadHostTelemetry();
    const host = await startHost(resolveConfig(values.config, env), env, values.state);
    const consoleServer = await startConsole(host, values, env, (line) => process.stderr.write(`toolshed: ${line}\n`));
    const reloading = reloadOnChange(host, {
      path: values.config ?? (existsSync('toolshed.json') ? 'toolshed.json' : undefined),
      load: () => resolveConfig(values.config, env),
      log: (line) => process.stderr.write(`toolshed: ${line}\n`),
    });
    // Console tokens work on an HTTP endpoint that requires auth too, each as its user, from when they are made
    // until they are revoked.
    const tokens = consoleServer?.tokens;
    await serve(host.server, values, env, {
      readiness: () => host.readiness(),
      relay: (request, auth) => host.relayTarget(request, auth),
      onListening: (url) => host.advertiseEndpoint(values.replicaUrl ?? url),
      ...(tokens === undefined
        ? {}
        : {
            verifyToken: async (presented: string) => {
              const stored = await tokens.verify(presented);
              return stored === undefined ? undefined : { subject: stored.user };
            },
          }),
    });
    reloading.close();
    await consoleServer?.handle.close();
    await host.close();
    stopCapping?.();
  });
} else if (name === 'tools') {
  await runCli(commands.tools, rest, env, async (values) => {
    const host = await startHost(resolveConfig(values.config, env), env, values.state);
    process.stdout.write(formatToolTable(host));
    const failures = startFailures(host);
    if (failures.message !== undefined) process.stderr.write(`toolshed tools: ${failures.message}\n`);
    process.exitCode = failures.exitCode;
    await host.close();
  });
} else if (name === 'call') {
  await runCli(commands.call, rest, env, async (values, operands) => {
    const [tool, json = '{}'] = operands;
    if (tool === undefined || operands.length > 2) {
      throw new LocalError(
        'config_invalid',
        `give a tool and its arguments as JSON, as in toolshed call sql_query '{"sql": "SELECT 1"}'`,
      );
    }
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new LocalError('config_invalid', `the arguments are not JSON: ${(error as Error).message}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw new LocalError('config_invalid', 'the arguments must be a JSON object');
    }
    const host = await startHost(resolveConfig(values.config, env), env, values.state);
    const { session, answer } = await connectCliClient(host);
    try {
      const result = (await session.request('tools/call', toolCallParams(host, tool, args as Record<string, unknown>), {
        onServerRequest: answer,
      })) as CallToolResult;
      process.stdout.write(formatResult(result));
      process.exitCode = result.isError === true ? 1 : 0;
    } catch (error) {
      process.stderr.write(`toolshed call: ${error instanceof UpstreamRpcError ? error.message : String(error)}\n`);
      process.exitCode = 2;
    } finally {
      await session.close();
      await host.close();
    }
  });
} else if (name === 'selftest') {
  await runCli(commands.selftest, rest, env, async (values) => {
    const host = await startHost(resolveConfig(values.config, env), env, values.state);
    const report = await runSelftest(host);
    process.stdout.write(report.text);
    process.exitCode = report.passed ? 0 : 1;
  });
} else {
  process.stderr.write(`toolshed: unknown command "${name}"; the commands are serve, tools, call and selftest\n`);
  process.exitCode = 2;
}
