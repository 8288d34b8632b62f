/**
 * The built bin as a user runs it: a child process over stdio, driven by the
 * official MCP SDK client (v1, `@modelcontextprotocol/sdk`), which lists the
 * tools first and then checks each result against its output schema, as
 * desktop clients do.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface StdioMcpClient {
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startStdioMcpClient(options: {
  bin: string;
  args: readonly string[];
  env: Record<string, string>;
  /** Node options for the child, before the script (`--cpu-prof`, say). */
  nodeArgs?: readonly string[];
}): Promise<StdioMcpClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), options.bin, ...options.args],
    env: options.env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'toolshed-email-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const pid = transport.pid;
  if (pid === null) throw new Error('the bin did not start');
  return {
    pid,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as Record<string, unknown>;
      if (result.isError === true) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
      return result;
    },
    close: () => client.close(),
  };
}

// Linux's USER_HZ: /proc reports CPU time in ticks of 1/100 s.
const ticksPerSecond = 100;

/** User plus system CPU seconds a process has used, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name in parentheses may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
