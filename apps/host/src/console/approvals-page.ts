import type { PendingApproval } from './approval-broker.ts';
import { html, type SafeHtml } from './html.ts';

function decisionForm(approval: PendingApproval, csrf: string, approve: boolean): SafeHtml {
  return html`<form method="post" action="/approvals/${approval.id}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="tool" value="${approval.tool}">
<input type="hidden" name="digest" value="${approval.argumentsDigest}">
<button type="submit" name="decision" value="${approve ? 'approve' : 'deny'}" class="${approve ? 'primary' : 'danger'}">${approve ? 'Approve' : 'Deny'} ${approval.tool}</button>
</form>`;
}

/** The waiting calls, each with its exact arguments, preview and the two buttons; what the live updates replace. */
export function approvalList(
  pending: readonly PendingApproval[],
  csrf: string,
  now: number = Date.now(),
  /** The view of each waiting call's tool, by approval id, shown with its arguments. */
  views: ReadonlyMap<string, SafeHtml> = new Map(),
): SafeHtml {
  if (pending.length === 0) return html`<p class="hint" data-empty>No call is waiting for approval.</p>`;
  return html`${pending.map(
    (
      approval,
    ) => html`<article class="approval" aria-labelledby="approval-${approval.id}" data-approval-id="${approval.id}">
<h2 id="approval-${approval.id}">${approval.tool} <span class="hint">(${approval.upstreamTool} on ${approval.server})</span></h2>
<p>${approval.reason} Asked by <strong>${approval.caller}</strong> at ${new Date(approval.requestedAt).toISOString()}; expires in ${Math.max(0, Math.round((approval.expiresAt - now) / 1000))} s unless decided.</p>
<h3>Arguments</h3>
<pre class="arguments">${JSON.stringify(approval.arguments, null, 2)}</pre>
${views.get(approval.id)}
${approval.preview === undefined ? '' : html`<h3>Preview</h3><pre class="preview">${approval.preview}</pre>`}
<p class="hint">Arguments digest (SHA-256): <code>${approval.argumentsDigest}</code></p>
${decisionForm(approval, csrf, true)}${decisionForm(approval, csrf, false)}
</article>`,
  )}`;
}

export function approvalsPage(
  pending: readonly PendingApproval[],
  csrf: string,
  views: ReadonlyMap<string, SafeHtml> = new Map(),
): SafeHtml {
  return html`<p>Calls from clients that cannot ask their user wait here. An approval is for this call only: this caller, this tool, these exact arguments, once.</p>
<div data-live-approvals aria-live="polite">${approvalList(pending, csrf, Date.now(), views)}</div>`;
}
