import type { CallToolResult, ToolDescriptor } from '@toolshed/mcp-core';
import type { AuditEntry } from '../compose/audit-log.ts';
import type { Host } from '../create-host.ts';
import { startedChildGroups } from '../upstream/child-process-transport.ts';
import { processesInGroups, processTableAvailable } from '../upstream/process-groups.ts';
import { eraOf } from './era-label.ts';
import { connectCliClient } from './host-client.ts';
import { toolCallParams } from './tool-call-params.ts';

export interface SelftestReport {
  text: string;
  passed: boolean;
}

/** Tools that can be called with no arguments and change nothing. */
function safeToCall(descriptor: ToolDescriptor): boolean {
  const required = (descriptor.inputSchema as { required?: unknown[] }).required ?? [];
  return descriptor.annotations?.readOnlyHint === true && required.length === 0;
}

export interface SelftestOptions {
  /** Where the process table is read from. Default `/proc`; elsewhere the leftover check is skipped. */
  procDirectory?: string | undefined;
  /** How long one tool may take before it counts as failed. Default 15 s. */
  callTimeLimitMs?: number | undefined;
}

/** Outcomes that mean the host could not get an answer from the server, not that the tool answered with an error. */
const failedOutcomes = new Set<AuditEntry['outcome']>(['error', 'timeout', 'cancelled']);

/**
 * `toolshed selftest`: starts every configured server, lists its tools,
 * calls the read-only ones that need no arguments, stops everything, and
 * checks that no process the host started is still alive. A tool that
 * answers with an error passes (the server works and said why, as the
 * weather server does offline); one whose server fails to answer — a
 * JSON-RPC error, a crash, no answer in time — fails the test, and so does
 * a server that is no longer up after its calls. A check that cannot run
 * here says "skipped" rather than passing.
 */
export async function runSelftest(host: Host, options: SelftestOptions = {}): Promise<SelftestReport> {
  const lines: string[] = [];
  let passed = true;
  const { session } = await connectCliClient(host);
  const finished = new Map<string, AuditEntry>();
  const stopListening = host.onCallFinished((entry) => finished.set(entry.tool, entry));
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
      finished.delete(row.tool);
      try {
        const result = (await session.request('tools/call', toolCallParams(host, row.tool, {}), {
          signal: AbortSignal.timeout(options.callTimeLimitMs ?? 15_000),
        })) as CallToolResult;
        const ms = Math.round(performance.now() - started);
        const first =
          result.content
            .find((block) => block.type === 'text')
            ?.text.split('\n')[0]
            ?.slice(0, 100) ?? '';
        const outcome = finished.get(row.tool)?.outcome;
        if (outcome !== undefined && failedOutcomes.has(outcome)) {
          passed = false;
          lines.push(`    ${row.tool}: FAILED — ${first}`);
        } else {
          lines.push(
            `    ${row.tool}: ${result.isError === true ? `answered with an error (${first})` : 'ok'} in ${ms} ms`,
          );
        }
      } catch (error) {
        passed = false;
        lines.push(`    ${row.tool}: FAILED — ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (upstream.state !== 'up') {
      passed = false;
      lines.push(
        `✗ ${entry.name}: ${upstream.state} after its calls${upstream.lastError === undefined ? '' : ` — ${upstream.lastError}`}`,
      );
    }
  }
  stopListening();
  await session.close();
  const groups = startedChildGroups();
  await host.close();
  if (processTableAvailable(options.procDirectory)) {
    const left = processesInGroups(groups, options.procDirectory);
    if (left.length > 0) passed = false;
    lines.push(
      `processes: ${groups.length} child process group${groups.length === 1 ? '' : 's'} started, ${left.length} process${left.length === 1 ? '' : 'es'} left${left.length === 0 ? '' : ` (${left.map((process) => `${process.pid} ${process.command}`).join(', ')})`}`,
    );
  } else {
    lines.push('processes: skipped — no process table (/proc) to look for leftovers in on this platform');
  }
  lines.push(passed ? 'selftest passed' : 'selftest FAILED');
  return { text: `${lines.join('\n')}\n`, passed };
}
