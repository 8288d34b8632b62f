import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `preview_email` tool's view. */
export const emailPreviewViewUri = 'ui://toolshed-email/preview';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);font:13px/1.45 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:10px;background:var(--bg);color:var(--fg)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:0 0 8px}dt{color:var(--muted)}dd{margin:0}
.who{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 8px;margin:0 4px 2px 0}
.who.ok::after{content:" ✓";color:#188038}.who.no{border-color:#d93025}.who.no::after{content:" ✗ not allowed";color:#d93025}
#blocked{color:#c5221f}#blocked:empty,#notes:empty{display:none}#notes{color:var(--muted)}
#body{white-space:pre-wrap;overflow-wrap:anywhere;border-top:1px solid var(--line);padding-top:8px;max-height:360px;overflow:auto}
#bar{display:flex;gap:8px;align-items:center;margin-top:8px}#status{color:var(--muted);flex:1}
button{font:inherit;color:inherit;background:none;border:1px solid var(--line);border-radius:4px;padding:2px 12px;cursor:pointer}
button:disabled{opacity:.4;cursor:default}#error{color:#c5221f}`;

const body = `<dl><dt>From</dt><dd id="from"></dd><dt>To</dt><dd id="to"></dd><dt>Cc</dt><dd id="cc"></dd>
<dt>Bcc</dt><dd id="bcc"></dd><dt>Subject</dt><dd id="subject"></dd><dt>Attachments</dt><dd id="attachments"></dd></dl>
<div id="blocked" role="alert"></div><div id="notes"></div><div id="body"></div>
<div id="bar"><span id="status">Waiting for the preview…</span><button id="send" hidden>Send…</button></div>
<div id="error" role="alert"></div>`;

// Hand-written. Everything in the message is written by someone else: it is set with textContent only, and an
// HTML body is shown as its source, never rendered, so no tracking pixel or link in it loads (the policy forbids it
// too). Send calls send_email, which asks the human itself: the click is never the yes.
const script = `"use strict";
var input = null, preview = null;
function $(id) { return document.getElementById(id); }
function addressOf(shown) { var match = /<([^>]+)>\\s*$/.exec(shown); return (match ? match[1] : shown).trim().toLowerCase(); }
function people(id, list, refused) {
  var box = $(id);
  box.textContent = list.length === 0 ? "—" : "";
  list.forEach(function (shown) {
    var chip = document.createElement("span");
    chip.textContent = shown;
    chip.className = "who " + (refused.indexOf(addressOf(shown)) >= 0 ? "no" : "ok");
    box.appendChild(chip);
  });
}
function size(bytes) { return bytes >= 1048576 ? (bytes / 1048576).toFixed(1) + " MB" : Math.ceil(bytes / 1024) + " KB"; }
function show() {
  var data = preview;
  var refused = data.blocked_by.filter(function (item) { return item.check === "allowlist"; })
    .map(function (item) { return String(item.reason).split(" ")[0].toLowerCase(); });
  $("from").textContent = data.from;
  people("to", data.to, refused); people("cc", data.cc, refused); people("bcc", data.bcc, refused);
  $("subject").textContent = data.subject;
  $("attachments").textContent = data.attachments.length === 0 ? "—" :
    data.attachments.map(function (file) { return file.name + " (" + size(file.size_bytes) + ", " + file.content_type + ")"; }).join(", ");
  $("blocked").textContent = data.blocked_by.map(function (item) { return "Blocked (" + item.check + "): " + item.reason; }).join("\\n");
  $("notes").textContent = data.notes.join(" ");
  $("body").textContent = data.text !== null ? data.text : data.html !== null ? "HTML body, shown as source:\\n" + data.html : "";
  if (data.body_truncated) $("body").textContent += "\\n[…cut in this preview, not in the message]";
  $("status").textContent = data.would_send ? "Ready to send to " + data.recipient_rule + (data.needs_confirmation ? "; you will be asked to confirm" : "") : "send_email would refuse this message";
  $("send").hidden = !data.would_send || !input;
}
$("send").onclick = function () {
  var button = $("send");
  button.disabled = true;
  $("error").textContent = "";
  $("status").textContent = "Waiting for your confirmation…";
  mcpView.callTool("send_email", input).then(function (answer) {
    var said = (answer.content && answer.content[0] && answer.content[0].text) || "";
    if (answer.isError) { $("status").textContent = "Not sent"; $("error").textContent = said; button.disabled = false; return; }
    $("status").textContent = said || "Sent";
    button.hidden = true;
    mcpView.updateModelContext({ content: [{ type: "text", text: "The user sent the previewed message from its view: " + said }] }).catch(function () {});
  }, function (error) { $("status").textContent = "Not sent"; $("error").textContent = error.message; button.disabled = false; });
};
mcpView.start({
  name: "toolshed-email-preview",
  onInput: function (args) { input = args; if (preview) show(); },
  onResult: function (result) {
    if (result.isError || !result.structuredContent) {
      $("status").textContent = "";
      $("error").textContent = (result.content && result.content[0] && result.content[0].text) || "No preview.";
      return;
    }
    preview = result.structuredContent;
    show();
  }
});`;

/** The email preview: the exact message, recipients with their allowlist status, attachments, body and Send. */
export const emailPreviewViewHtml: () => string = onFirstUse(() =>
  viewDocument({ title: 'Email preview', style, body, script }),
);

export function createEmailPreviewView(): Resource {
  return defineView({
    uri: emailPreviewViewUri,
    name: 'email-preview',
    title: 'Email preview',
    description: 'A preview_email result: the message as it would be sent, with Send',
    html: emailPreviewViewHtml,
  });
}
