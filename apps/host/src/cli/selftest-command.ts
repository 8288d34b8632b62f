import type { CallToolResult, ToolDescriptor } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import { startedChildGroups } from '../upstream/child-process-transport.ts';
import { processesInGroups } from '../upstream/process-groups.ts';
import { eraOf } from './era-label.ts';
import { connectCliClient } from './host-client.ts';

export interface SelftestReport {
  text: string;
  passed: boolean;
}

/** Tools that can be called with no arguments and change nothing. */
function safeToCall(descriptor: ToolDescriptor): boolean {
  const required = (descriptor.inputSchema as { required?: unknown[] }).required ?? [];
  return descriptor.annotations?.readOnlyHint === true && required.length === 0;
}

/**
 * `toolshed selftest`: starts every configured server, lists its tools,
 * calls the read-only ones that need no arguments, stops everything, and
 * checks that no process the host started is still alive.
 */
export async function runSelftest(host: Host): Promise<SelftestReport> {
  const lines: string[] = [];
  let passed = true;
  const { session } = await connectCliClient(host);
  for (const upstream of host.upstreams) {
    const { entry } = upstream;
    if (upstream.state !== 'up') {
      passed = false;
      lines.push(
        `✗ ${entry.name}: ${upstream.state}${upstream.lastError === undefined ? '' : ` — ${upstream.lastError}`}`,
      );
      continue;
    }
    const rows = host.tools().filter((row) => row.server === entry.name);
    lines.push(
      `✓ ${entry.name}: up, ${rows.length} tools${upstream.identity === undefined ? '' : `, ${eraOf(upstream.identity)}`}`,
    );
    for (const descriptor of upstream.tools.filter(safeToCall)) {
      const row = rows.find((candidate) => candidate.upstreamTool === descriptor.name);
      if (row === undefined) continue;
      const started = performance.now();
      try {
        const result = (await session.request(
          'tools/call',
          { name: row.tool, arguments: {} },
          { signal: AbortSignal.timeout(15_000) },
        )) as CallToolResult;
        const ms = Math.round(performance.now() - started);
        const first =
          result.content
            .find((block) => block.type === 'text')
            ?.text.split('\n')[0]
            ?.slice(0, 100) ?? '';
        // An isError result is an answer: the server is working and said why it could not (offline weather, say).
        lines.push(
          `    ${row.tool}: ${result.isError === true ? `answered with an error (${first})` : 'ok'} in ${ms} ms`,
        );
      } catch (error) {
        passed = false;
        lines.push(`    ${row.tool}: FAILED — ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  await session.close();
  const groups = startedChildGroups();
  await host.close();
  const left = processesInGroups(groups);
  if (left.length > 0) passed = false;
  lines.push(
    `processes: ${groups.length} child process group${groups.length === 1 ? '' : 's'} started, ${left.length} process${left.length === 1 ? '' : 'es'} left${left.length === 0 ? '' : ` (${left.map((process) => `${process.pid} ${process.command}`).join(', ')})`}`,
  );
  lines.push(passed ? 'selftest passed' : 'selftest FAILED');
  return { text: `${lines.join('\n')}\n`, passed };
}
