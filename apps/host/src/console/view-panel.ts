import { html, type SafeHtml } from './html.ts';
import type { ViewMount } from './view-mounts.ts';

/**
 * Where a tool's view is shown on a console page: the console's view host
 * (`/assets/view-host.js`) reads the mount from the data attributes, puts the
 * sandboxed frame in and hands the view its input and result; the messages
 * the view sends the user and the links it asks to open appear in the log
 * under it. Without the script the page still shows the result as text.
 */
export function viewPanel(mount: ViewMount, viewOrigin: string): SafeHtml {
  const result = mount.toolResult === undefined ? undefined : JSON.stringify(mount.toolResult);
  return html`<section class="view" aria-label="View of ${mount.tool}" data-view-mount="${mount.id}" data-view-src="${viewOrigin}/views/${mount.documentToken}" data-view-tool="${mount.tool}" data-view-input="${JSON.stringify(mount.toolInput)}"${result === undefined ? '' : html` data-view-result="${result}"`}>
<p class="hint">The view of ${mount.tool}, from its server, in a sandboxed frame. Its tool calls run as yours, through approvals and the audit log; a click in it never approves anything.</p>
<div class="view-log" role="log" aria-label="Messages from the view of ${mount.tool}"></div>
</section>`;
}
