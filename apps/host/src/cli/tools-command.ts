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
      lines.push(`  ${row.tool.padEnd(width)}  ${hints.join(', ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
