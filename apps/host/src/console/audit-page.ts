import type { AuditOutcome, AuditQuery } from '@toolshed/state';
import type { Host } from '../create-host.ts';
import { html, type SafeHtml } from './html.ts';

type AuditFilter = Omit<AuditQuery, 'limit' | 'offset'>;

const outcomes: readonly AuditOutcome[] = [
  'started',
  'interrupted',
  'ok',
  'tool_error',
  'error',
  'refused',
  'cancelled',
  'timeout',
  'rate_limited',
  'input_required',
];
export const auditPageSize = 50;

/** A `datetime-local` value (minutes, UTC here) as the ISO bound it means; anything else is no bound. */
function timeBound(value: string | null, end: boolean): string | undefined {
  if (value === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const withSeconds = value.length === 16 ? `${value}:${end ? '59' : '00'}` : value;
  return `${withSeconds}.${end ? '999' : '000'}Z`;
}

function nonEmpty(value: string | null): string | undefined {
  return value === null || value.trim() === '' ? undefined : value.trim();
}

/** The filters a query string asks for. */
export function auditFilterOf(query: URLSearchParams): { filter: AuditFilter; page: number } {
  const page = Math.max(0, Math.floor(Number(query.get('page') ?? '1')) - 1) || 0;
  return {
    filter: {
      server: nonEmpty(query.get('server')),
      tool: nonEmpty(query.get('tool')),
      outcome: nonEmpty(query.get('outcome')),
      traceId: nonEmpty(query.get('trace')),
      from: timeBound(query.get('from'), false),
      to: timeBound(query.get('to'), true),
    },
    page,
  };
}

/**
 * The audit record from the state store — every replica's calls, the same on
 * every replica — filtered by server, tool, outcome, trace and time, a page
 * at a time, newest first. A call's trace id, when telemetry was on, is the
 * way from its row to its trace in a tracing backend, and back.
 */
export async function auditPage(host: Host, query: URLSearchParams): Promise<SafeHtml> {
  if (!host.auditEnabled)
    return html`<p class="notice">The audit log is off (<code>toolshed.audit.enabled</code>).</p>`;
  const { filter, page } = auditFilterOf(query);
  const result = await host.store().audit.query({ ...filter, offset: page * auditPageSize, limit: auditPageSize });
  const pages = Math.max(1, Math.ceil(result.matching / auditPageSize));
  const link = (target: number) => {
    const next = new URLSearchParams(query);
    next.set('page', String(target + 1));
    return `/audit?${next.toString()}`;
  };
  const value = (name: string) => query.get(name) ?? '';
  const first = result.matching === 0 ? 0 : page * auditPageSize + 1;
  const last = Math.min(result.matching, (page + 1) * auditPageSize);
  return html`<form method="get" action="/audit" class="filters" aria-label="Filter the audit log">
<div><label for="filter-server">Server</label><select id="filter-server" name="server"><option value="">any</option>${result.servers.map((server) => html`<option${server === filter.server ? html` selected` : ''}>${server}</option>`)}</select></div>
<div><label for="filter-tool">Tool contains</label><input type="text" id="filter-tool" name="tool" value="${value('tool')}"></div>
<div><label for="filter-outcome">Outcome</label><select id="filter-outcome" name="outcome"><option value="">any</option>${outcomes.map((outcome) => html`<option${outcome === filter.outcome ? html` selected` : ''}>${outcome}</option>`)}</select></div>
<div><label for="filter-trace">Trace id</label><input type="text" id="filter-trace" name="trace" value="${value('trace')}" pattern="[0-9a-fA-F]{32}" size="32"></div>
<div><label for="filter-from">From (UTC)</label><input type="datetime-local" id="filter-from" name="from" value="${value('from')}"></div>
<div><label for="filter-to">To (UTC)</label><input type="datetime-local" id="filter-to" name="to" value="${value('to')}"></div>
<div><button type="submit">Filter</button> <a href="/audit">Clear</a></div>
</form>
<p role="status" class="audit-count">Calls ${first}&ndash;${last} of ${result.matching} matching (${result.total} in the record), page ${page + 1} of ${pages}.</p>
<table class="audit">
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Caller</th><th scope="col">Server</th><th scope="col">Tool</th><th scope="col">Approval</th><th scope="col">Outcome</th><th scope="col">ms</th><th scope="col">Error</th><th scope="col">Trace</th></tr></thead>
<tbody>${result.records.map(
    (entry) =>
      html`<tr><td>${entry.time}</td><td>${entry.caller}</td><td>${entry.server}</td><td>${entry.tool}</td><td>${entry.approval}</td><td class="outcome-${entry.outcome}">${entry.outcome}</td><td>${entry.duration_ms ?? ''}</td><td>${entry.error ?? ''}</td><td class="trace-id">${entry.trace_id ?? ''}</td></tr>`,
  )}</tbody>
</table>
<nav class="pages" aria-label="Pages">${page > 0 ? html`<a href="${link(page - 1)}" rel="prev">Newer</a>` : ''}${page + 1 < pages ? html`<a href="${link(page + 1)}" rel="next">Older</a>` : ''}</nav>`;
}
