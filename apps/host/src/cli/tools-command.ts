import type { Host } from '../create-host.ts';
import { eraOf } from './era-label.ts';

const flags: [keyof NonNullable<ReturnType<Host['tools']>[number]['annotations']>, string][] = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open-world'],
];

/** `toolshed tools`: every tool by server, with its annotations and whether it asks first. */
export function formatToolTable(host: Host): string {
  const lines: string[] = [];
  for (const upstream of host.upstreams) {
    const rows = host.tools().filter((row) => row.server === upstream.entry.name);
    const how =
      upstream.entry.kind === 'package'
        ? upstream.entry.package
        : upstream.entry.kind === 'stdio'
          ? `stdio: ${upstream.entry.command}`
          : upstream.entry.url;
    const era = upstream.identity === undefined ? '' : `, ${eraOf(upstream.identity)}`;
    lines.push(
      `${upstream.entry.name} (${how}) — ${upstream.state}${era}${upstream.lastError === undefined ? '' : `: ${upstream.lastError}`}`,
    );
    const width = Math.max(0, ...rows.map((row) => row.tool.length));
    for (const row of rows) {
      const hints = flags.filter(([key]) => row.annotations?.[key] === true).map(([, label]) => label);
      if (row.approval) hints.push('asks first');
      const renamed =
        row.renamed === undefined
          ? ''
          : ` (renamed: ${row.renamed.wanted} is also wanted by ${row.renamed.sharedWith.join(', ')})`;
      lines.push(`  ${row.tool.padEnd(width)}  ${hints.join(', ')}${renamed}`.trimEnd());
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What `toolshed tools` says on stderr about servers that did not start,
 * and its exit code: 1 when any configured server did not start, as
 * `toolshed selftest` fails then too — a table that leaves out a broken
 * server is not a success, and scripts that check the exit code must see it.
 */
export function startFailures(host: Host): { message: string | undefined; exitCode: number } {
  const failed = host.upstreams.filter((upstream) => upstream.state !== 'up');
  if (failed.length === 0) return { message: undefined, exitCode: 0 };
  const names = failed.map((upstream) => `${upstream.entry.name} (${upstream.lastError ?? upstream.state})`).join('; ');
  return failed.length === host.upstreams.length
    ? { message: `no server started: ${names}`, exitCode: 1 }
    : { message: `${failed.length} of ${host.upstreams.length} servers did not start: ${names}`, exitCode: 1 };
}
