import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `edit_file` tool's view. */
export const editReviewViewUri = 'ui://toolshed-filesystem/edit-review';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);
--del:rgba(215,58,73,.16);--add:rgba(40,167,69,.18);font:13px/1.4 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:8px;background:var(--bg);color:var(--fg)}
#bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}#file{flex:1;font-weight:600;overflow-wrap:anywhere}
#status{color:var(--muted)}#error{color:#c5221f}
button{font:inherit;color:inherit;background:none;border:1px solid var(--line);border-radius:4px;padding:2px 10px;cursor:pointer}
button:disabled{opacity:.4;cursor:default}
#wrap{overflow:auto;max-height:480px;border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%;font:12px/1.45 var(--font-mono,ui-monospace,monospace);table-layout:fixed}
td{padding:0 6px;white-space:pre-wrap;overflow-wrap:anywhere;vertical-align:top}
col.no{width:3.5em}td.no{color:var(--muted);text-align:right;user-select:none}
td.del{background:var(--del)}td.add{background:var(--add)}tr.hunk td{color:var(--muted);background:var(--line)}`;

const body = `<div id="bar"><span id="file"></span><span id="status">Waiting for the result…</span>
<button id="apply" hidden>Apply</button></div><div id="error" role="alert"></div>
<div id="wrap"><table><colgroup><col class="no"><col><col class="no"><col></colgroup><tbody id="rows"></tbody></table></div>`;

// Hand-written; text is set with textContent only, so nothing in the file becomes markup. Apply calls the
// app-only apply_reviewed_edit with the reviewed edits and the dry run's digest; the host's approval still asks.
const script = `"use strict";
var input = null, result = null;
function $(id) { return document.getElementById(id); }
function cell(text, className) {
  var td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}
function row(cells, className) {
  var tr = document.createElement("tr");
  cells.forEach(function (td) { tr.appendChild(td); });
  if (className) tr.className = className;
  return tr;
}
// The unified diff as rows of old and new side by side: removed lines paired with the added lines after them.
function sideBySide(diff) {
  var rows = document.createDocumentFragment(), oldNo = 0, newNo = 0, removed = [], added = [];
  function flush() {
    for (var i = 0; i < Math.max(removed.length, added.length); i++) {
      var left = removed[i], right = added[i];
      rows.appendChild(row([
        cell(left ? String(left.no) : "", "no"), cell(left ? left.text : "", left ? "del" : ""),
        cell(right ? String(right.no) : "", "no"), cell(right ? right.text : "", right ? "add" : "")
      ]));
    }
    removed = []; added = [];
  }
  diff.split("\\n").forEach(function (line) {
    var hunk = /^@@ -(\\d+)(?:,\\d+)? \\+(\\d+)(?:,\\d+)? @@/.exec(line);
    if (hunk) {
      flush();
      oldNo = Number(hunk[1]); newNo = Number(hunk[2]);
      var td = cell(line);
      td.colSpan = 4;
      rows.appendChild(row([td], "hunk"));
      return;
    }
    if (oldNo === 0 && newNo === 0) return;
    var mark = line.charAt(0), text = line.slice(1);
    if (mark === "-") removed.push({ no: oldNo++, text: text });
    else if (mark === "+") added.push({ no: newNo++, text: text });
    else if (mark === " ") {
      flush();
      rows.appendChild(row([cell(String(oldNo++), "no"), cell(text), cell(String(newNo++), "no"), cell(text)]));
    }
  });
  flush();
  return rows;
}
function show() {
  if (!result) return;
  var data = result.structuredContent || {};
  var diff = String(data.content || "").replace(/^\\x60{3,}diff\\n/, "").replace(/\\x60{3,}\\n*$/, "");
  $("file").textContent = input && input.path ? input.path : "";
  $("rows").textContent = "";
  $("rows").appendChild(sideBySide(diff));
  $("status").textContent = data.written ? "Written" : data.changed ? "Not written yet: a dry run" : "No change";
  $("apply").hidden = !(input && input.dryRun === true && data.changed && !data.written && data.digest);
}
$("apply").onclick = function () {
  var button = $("apply");
  button.disabled = true;
  $("error").textContent = "";
  $("status").textContent = "Applying — the host may ask you to approve…";
  var args = { path: input.path, edits: input.edits, digest: result.structuredContent.digest };
  mcpView.callTool("apply_reviewed_edit", args).then(function (answer) {
    if (answer.isError) {
      $("status").textContent = "Not written";
      $("error").textContent = (answer.content && answer.content[0] && answer.content[0].text) || "The edit was refused.";
      button.disabled = false;
      return;
    }
    $("status").textContent = "Written";
    button.hidden = true;
    mcpView.updateModelContext({
      content: [{ type: "text", text: "The user reviewed the dry run and applied the edit; the file now has it." }],
      structuredContent: { applied: true, path: input.path }
    }).catch(function () {});
  }, function (error) {
    $("status").textContent = "Not written";
    $("error").textContent = error.message;
    button.disabled = false;
  });
};
mcpView.start({
  name: "toolshed-filesystem-edit-review",
  onInput: function (args) { input = args; show(); },
  onResult: function (answer) {
    if (answer.isError) {
      $("status").textContent = "";
      $("error").textContent = (answer.content && answer.content[0] && answer.content[0].text) || "The edit failed.";
      return;
    }
    result = answer;
    show();
  }
});`;

/** The edit review: a dry run's diff side by side, with Apply. */
export const editReviewViewHtml: () => string = onFirstUse(() =>
  viewDocument({ title: 'Edit review', style, body, script }),
);

export function createEditReviewView(): Resource {
  return defineView({
    uri: editReviewViewUri,
    name: 'edit-review',
    title: 'Edit review',
    description: 'An edit_file diff side by side, with Apply for a dry run',
    html: editReviewViewHtml,
  });
}
