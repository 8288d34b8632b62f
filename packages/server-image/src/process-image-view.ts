import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `process_image` tool's view. */
export const processImageViewUri = 'ui://toolshed-image/before-after';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);font:13px/1.4 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:8px;background:var(--bg);color:var(--fg)}#steps{color:var(--muted);margin-bottom:6px}
#pair{display:flex;gap:8px;flex-wrap:wrap}figure{margin:0;flex:1 1 240px;border:1px solid var(--line);border-radius:6px;padding:6px}
figcaption{color:var(--muted);margin-bottom:4px}img{max-width:100%;display:block;
background:repeating-conic-gradient(#8884 0 25%,transparent 0 50%) 0 0/16px 16px}#error{color:#c5221f}`;

const body = `<div id="steps">Waiting for the result…</div><div id="error" role="alert"></div>
<div id="pair"><figure><figcaption id="beforeLabel">Before</figcaption><img id="before" alt="The input image"></figure>
<figure><figcaption id="afterLabel">After</figcaption><img id="after" alt="The processed image"></figure></div>`;

// Hand-written; images are shown from data: URIs the server sent (the view's policy allows nothing else).
const script = `"use strict";
var input = null;
function $(id) { return document.getElementById(id); }
function imageOf(result) {
  var blocks = (result && result.content) || [];
  for (var i = 0; i < blocks.length; i++) if (blocks[i].type === "image" && /^image\\/(png|jpeg|webp|gif|avif)$/.test(blocks[i].mimeType)) return blocks[i];
  return null;
}
function size(part) { return part ? part.width + " × " + part.height + " px, " + part.format : ""; }
function show(img, block) { if (block) img.src = "data:" + block.mimeType + ";base64," + block.data; }
function loadBefore() {
  if (!input) return;
  var source = {};
  ["path", "url", "data"].forEach(function (key) { if (typeof input[key] === "string") source[key] = input[key]; });
  mcpView.callTool("preview_source_image", source).then(function (answer) {
    if (answer.isError) { $("error").textContent = (answer.content[0] && answer.content[0].text) || "The input could not be shown."; return; }
    show($("before"), imageOf(answer));
    var data = answer.structuredContent || {};
    $("beforeLabel").textContent = "Before · " + size(data.source);
  }, function (error) { $("error").textContent = error.message; });
}
mcpView.start({
  name: "toolshed-image-before-after",
  onInput: function (args) { input = args; },
  onResult: function (result) {
    if (result.isError) { $("steps").textContent = ""; $("error").textContent = (result.content[0] && result.content[0].text) || "The image was not processed."; return; }
    var data = result.structuredContent || {};
    $("steps").textContent = (data.operations && data.operations.length ? data.operations.join(" → ") : "converted") +
      (data.file ? " · written to " + data.file.path : "");
    show($("after"), imageOf(result));
    $("afterLabel").textContent = "After · " + size(data.result);
    loadBefore();
  }
});`;

/** The before/after view of process_image. */
export const processImageViewHtml: () => string = onFirstUse(() =>
  viewDocument({ title: 'Before and after', style, body, script }),
);

export function createProcessImageView(): Resource {
  return defineView({
    uri: processImageViewUri,
    name: 'before-after',
    title: 'Before and after',
    description: 'A process_image result beside its input',
    html: processImageViewHtml,
  });
}
