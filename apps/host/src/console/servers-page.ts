import type { ToolAnnotations, ToolDescriptor } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import { html, type SafeHtml } from './html.ts';

function annotationBadges(annotations: ToolAnnotations | undefined): SafeHtml {
  const hints = [
    ['readOnlyHint', 'read-only'],
    ['destructiveHint', 'destructive'],
    ['idempotentHint', 'idempotent'],
    ['openWorldHint', 'open world'],
  ] as const;
  const shown = hints.filter(([key]) => annotations?.[key] !== undefined);
  if (shown.length === 0) return html`<span class="hint">none</span>`;
  return html`${shown.map(([key, label]) => html`<span class="badge">${annotations?.[key] === true ? label : `not ${label}`}</span>`)}`;
}

/** Every configured server: its state, era, restarts and last error, and its tools with schemas and annotations. */
export function serversPage(host: Host): SafeHtml {
  const rows = host.tools();
  return html`${host.upstreams.map((upstream) => {
    const { entry } = upstream;
    const tools = rows.filter((row) => row.server === entry.name);
    const descriptors = new Map<string, ToolDescriptor>(upstream.tools.map((tool) => [tool.name, tool]));
    const where = entry.kind === 'package' ? entry.package : entry.kind === 'http' ? entry.url : entry.command;
    return html`<section aria-labelledby="server-${entry.name}">
<h2 id="server-${entry.name}">${entry.name}</h2>
<table><tbody>
<tr><th scope="row">State</th><td class="state-${upstream.state}">${upstream.state}</td></tr>
<tr><th scope="row">Kind</th><td>${entry.kind} &middot; <code>${where}</code></td></tr>
<tr><th scope="row">Protocol era</th><td>${upstream.identity === undefined ? '—' : `${upstream.identity.era} (${upstream.identity.protocolVersion})`}</td></tr>
<tr><th scope="row">Restarts</th><td>${upstream.restarts}</td></tr>
<tr><th scope="row">Last error</th><td>${upstream.lastError ?? '—'}</td></tr>
</tbody></table>
<table>
<thead><tr><th scope="col">Tool</th><th scope="col">Annotations</th><th scope="col">Approval</th><th scope="col">Input schema</th><th scope="col"><span class="hint">Run</span></th></tr></thead>
<tbody>${tools.map((row) => {
      const descriptor = descriptors.get(row.upstreamTool);
      return html`<tr>
<td><strong>${row.tool}</strong>${descriptor?.description === undefined ? '' : html`<p class="hint">${descriptor.description}</p>`}</td>
<td>${annotationBadges(row.annotations)}</td>
<td>${row.approval ? 'asks first' : '—'}</td>
<td><details><summary>schema</summary><pre>${JSON.stringify(descriptor?.inputSchema ?? {}, null, 2)}</pre></details></td>
<td><a href="/try/${encodeURIComponent(row.tool)}">Try ${row.tool}</a></td>
</tr>`;
    })}</tbody>
</table>
</section>`;
  })}`;
}
