import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `read_message` tool's view. */
export const messageViewUri = 'ui://toolshed-email/message';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);font:13px/1.45 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:10px;background:var(--bg);color:var(--fg)}h1{font-size:15px;margin:0 0 6px;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0 0 8px}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
#body{white-space:pre-wrap;overflow-wrap:anywhere;border-top:1px solid var(--line);padding-top:8px;max-height:420px;overflow:auto}
#cut{color:var(--muted)}#cut:empty{display:none}#error{color:#c5221f}`;

const body = `<h1 id="subject">Waiting for the message…</h1><dl><dt>From</dt><dd id="from"></dd><dt>To</dt><dd id="to"></dd>
<dt>Cc</dt><dd id="cc"></dd><dt>Date</dt><dd id="date"></dd><dt>Attachments</dt><dd id="attachments"></dd></dl>
<div id="body"></div><div id="cut"></div><div id="error" role="alert"></div>`;

// Hand-written. The message is written by a third party: every field is set with textContent only, and the body is
// the server's plain text of it, so no markup, image or link in the mail renders or loads.
const script = `"use strict";
function $(id) { return document.getElementById(id); }
function list(values) { return values && values.length ? values.join(", ") : "—"; }
function size(bytes) { return bytes >= 1048576 ? (bytes / 1048576).toFixed(1) + " MB" : Math.ceil(bytes / 1024) + " KB"; }
mcpView.start({
  name: "toolshed-email-message",
  onResult: function (result) {
    var data = result.structuredContent;
    if (result.isError || !data) {
      $("subject").textContent = "";
      $("error").textContent = (result.content && result.content[0] && result.content[0].text) || "No message.";
      return;
    }
    $("subject").textContent = data.subject || "(no subject)";
    $("from").textContent = list(data.from);
    $("to").textContent = list(data.to);
    $("cc").textContent = list(data.cc);
    $("date").textContent = data.date || "—";
    $("attachments").textContent = (data.attachments || []).length === 0 ? "—" : data.attachments.map(function (file) {
      return file.index + ". " + file.filename + " (" + size(file.size) + ", " + file.content_type + ")";
    }).join("; ");
    $("body").textContent = data.body;
    $("cut").textContent = data.body_truncated ? "Showing " + data.body.length + " of " + data.body_characters + " characters." : "";
  }
});`;

/** The message reader: headers, attachments and the body as text. */
export const messageViewHtml: () => string = onFirstUse(() => viewDocument({ title: 'Message', style, body, script }));

export function createMessageView(): Resource {
  return defineView({
    uri: messageViewUri,
    name: 'message',
    title: 'Message',
    description: 'A read_message result: headers, attachments and the body as text',
    html: messageViewHtml,
  });
}
