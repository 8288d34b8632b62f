import { defineView, onFirstUse, type Resource, viewDocument } from '@toolshed/mcp-core';

/** The `query` tool's view. */
export const queryViewUri = 'ui://toolshed-sql/query';

const style = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#1b1b1f);
--muted:var(--color-text-secondary,#5f6368);--line:var(--color-border-primary,#d5d7db);
--accent:var(--color-ring-primary,#2f6fde);font:13px/1.4 var(--font-sans,system-ui,sans-serif)}
[data-theme=dark]{--bg:var(--color-background-primary,#1e1f22);--fg:var(--color-text-primary,#e8e8ea);
--muted:var(--color-text-secondary,#a0a3a8);--line:var(--color-border-primary,#3a3c40)}
body{margin:0;padding:8px;background:var(--bg);color:var(--fg)}
#bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}#status{color:var(--muted);flex:1}
button{font:inherit;color:inherit;background:none;border:1px solid var(--line);border-radius:4px;padding:2px 8px;cursor:pointer}
button:disabled{opacity:.4;cursor:default}
#wrap{overflow:auto;max-height:420px;border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%}th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
th{position:sticky;top:0;background:var(--bg)}th.n{text-align:right}th button{border:0;padding:0;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}td.null{color:var(--muted);font-style:italic}
#error{color:#c5221f}#chart{margin-top:8px}#chart svg{width:100%;height:160px}
#chart rect{fill:var(--accent)}#chart polyline{fill:none;stroke:var(--accent);stroke-width:2}
#chart text{fill:var(--muted);font-size:10px}`;

const body = `<div id="bar"><span id="status">Waiting for the result…</span>
<button id="chartType" hidden>Line</button><button id="prev" disabled>Previous</button><button id="next" disabled>Next</button></div>
<div id="error" role="alert"></div><div id="wrap"><table><thead><tr id="head"></tr></thead><tbody id="rows"></tbody></table></div>
<div id="chart"></div>`;

// Hand-written, no framework. The shown page's rows and the chart are each built as one string and set with one
// innerHTML, a fraction of the time of a node per cell; every value a database holds is escaped on the way in, so
// none becomes markup. Only the page on screen is built: a 1,000-row result renders 50 rows.
const script = `"use strict";
var pageSize = 50, escapes = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
var state = { input: null, columns: [], rows: [], offset: 0, total: 0, truncated: false, sort: null, descending: false, line: false, busy: false };
function $(id) { return document.getElementById(id); }
function make(tag, text, className) {
  var node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
function escape(text) { return text.replace(/[&<>"]/g, function (character) { return escapes[character]; }); }
function cellText(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "object") return value.type === "blob" ? "BLOB (" + value.bytes + " bytes)" : JSON.stringify(value);
  return String(value);
}
// The last all-number column: the measure in "label, value" results, the computed one in "id, value".
function numericColumn() {
  for (var c = state.columns.length - 1; c >= 0; c--) {
    var numbers = 0, other = 0;
    state.rows.forEach(function (row) { if (typeof row[c] === "number") numbers++; else if (row[c] !== null) other++; });
    if (numbers > 0 && other === 0) return c;
  }
  return -1;
}
function drawChart() {
  var chart = $("chart"), column = numericColumn();
  $("chartType").hidden = column < 0;
  if (column < 0 || state.rows.length === 0) { chart.textContent = ""; return; }
  var values = state.rows.map(function (row) { return typeof row[column] === "number" ? row[column] : 0; });
  var max = Math.max.apply(null, values.map(Math.abs)) || 1, width = 600, height = 150, step = width / values.length;
  var name = state.columns[column].name, points = [];
  var svg = '<svg viewBox="0 0 ' + width + " " + (height + 12) + '" role="img" aria-label="' +
    escape(name + ", rows " + (state.offset + 1) + " to " + (state.offset + values.length)) + '">';
  values.forEach(function (value, index) {
    var barHeight = Math.abs(value) / max * height, x = index * step;
    if (state.line) points.push((x + step / 2).toFixed(1) + "," + (height - barHeight).toFixed(1));
    else svg += '<rect x="' + (x + step * 0.1).toFixed(1) + '" y="' + (height - barHeight).toFixed(1) + '" width="' +
      (step * 0.8).toFixed(1) + '" height="' + barHeight.toFixed(1) + '"></rect>';
  });
  if (state.line) svg += '<polyline points="' + points.join(" ") + '"></polyline>';
  chart.innerHTML = svg + '<text x="0" y="' + (height + 11) + '">' + escape(name + " (max " + max + ")") + "</text></svg>";
}
function render() {
  var head = $("head"), rows = $("rows");
  head.textContent = "";
  state.columns.forEach(function (column, index) {
    var button = make("button", column.name + (state.sort === index ? (state.descending ? " ▼" : " ▲") : ""));
    button.title = "Sort by " + column.name;
    button.onclick = function () { sortBy(index); };
    var th = make("th", undefined, state.rows.length > 0 && typeof state.rows[0][index] === "number" ? "n" : "");
    th.appendChild(button);
    head.appendChild(th);
  });
  var markup = "";
  for (var r = 0; r < state.rows.length; r++) {
    var row = state.rows[r];
    markup += "<tr>";
    for (var c = 0; c < row.length; c++) {
      var value = row[c];
      markup += (value === null ? '<td class="null">' : typeof value === "number" ? '<td class="n">' : "<td>") + escape(cellText(value)) + "</td>";
    }
    markup += "</tr>";
  }
  rows.innerHTML = markup;
  var last = state.offset + state.rows.length;
  $("status").textContent = state.rows.length === 0 ? "No rows" :
    "Rows " + (state.offset + 1) + "–" + last + " of " + state.total + (state.truncated ? " (cut at the server's cap)" : "");
  $("prev").disabled = state.busy || state.offset === 0;
  $("next").disabled = state.busy || last >= state.total && !(state.firstPage && state.truncated);
  drawChart();
}
function tellModel() {
  var view = { offset: state.offset, rows_shown: state.rows.length, total_rows: state.total };
  if (state.sort !== null) { view.sort_column = state.sort; view.sort_descending = state.descending; }
  var text = "The user is viewing rows " + (state.offset + 1) + "–" + (state.offset + state.rows.length) + " of " + state.total +
    " in the query view" + (state.sort === null ? "" : ", sorted by column " + state.sort + (state.descending ? " descending" : " ascending")) + ".";
  mcpView.updateModelContext({ content: [{ type: "text", text: text }], structuredContent: view }).catch(function () {});
}
// Nulls last, numbers by value, everything else as text: the order query_page sorts in.
function compareCells(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  var x = typeof a === "object" ? JSON.stringify(a) : String(a), y = typeof b === "object" ? JSON.stringify(b) : String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
// A vetted tool's result has no statement to page through: its rows are paged and sorted here.
function pageLocally(offset) {
  var rows = state.all.slice();
  if (state.sort !== null) {
    var column = state.sort, direction = state.descending ? -1 : 1;
    rows.sort(function (a, b) { return direction * compareCells(a[column], b[column]); });
  }
  state.firstPage = false; state.offset = offset; state.rows = rows.slice(offset, offset + pageSize); state.total = state.all.length;
  render();
  tellModel();
}
function load(offset) {
  if (!state.input || state.busy) return;
  if (typeof state.input.sql !== "string") { pageLocally(offset); return; }
  var args = { sql: state.input.sql, offset: offset, limit: pageSize };
  if (state.input.database !== undefined) args.database = state.input.database;
  if (state.input.params !== undefined) args.params = state.input.params;
  if (state.sort !== null) { args.sort_column = state.sort; args.sort_descending = state.descending; }
  state.busy = true;
  render();
  mcpView.callTool("query_page", args).then(function (result) {
    state.busy = false;
    if (result.isError) { $("error").textContent = (result.content[0] && result.content[0].text) || "The page could not be read."; render(); return; }
    var page = result.structuredContent;
    $("error").textContent = "";
    state.firstPage = false;
    state.columns = page.columns; state.rows = page.rows; state.offset = page.offset; state.total = page.total_rows; state.truncated = page.truncated;
    render();
    tellModel();
  }, function (error) { state.busy = false; $("error").textContent = error.message; render(); });
}
function sortBy(index) {
  state.descending = state.sort === index ? !state.descending : false;
  state.sort = index;
  load(0);
}
$("prev").onclick = function () { load(Math.max(0, state.offset - pageSize)); };
$("next").onclick = function () { load(state.offset + pageSize); };
$("chartType").onclick = function () { state.line = !state.line; $("chartType").textContent = state.line ? "Bars" : "Line"; drawChart(); };
mcpView.start({
  name: "toolshed-sql-query",
  onInput: function (input) { state.input = input; },
  onResult: function (result) {
    performance.mark("result-received");
    var data = result.structuredContent;
    if (result.isError || !data || !Array.isArray(data.rows)) {
      $("status").textContent = "";
      $("error").textContent = (result.content && result.content[0] && result.content[0].text) || "No rows to show.";
      return;
    }
    state.columns = data.columns; state.all = data.rows; state.rows = data.rows.slice(0, pageSize); state.offset = 0;
    state.total = data.row_count; state.truncated = data.truncated; state.firstPage = true;
    render();
    // For the bench: the first animation frame with the rows (before its layout and paint), and the task after
    // it, once that frame is laid out and painted.
    requestAnimationFrame(function () {
      performance.mark("rows-rendered");
      setTimeout(function () { performance.mark("rows-painted"); });
    });
  }
});`;

/**
 * The `query` view, shown for the vetted tools too: the result as a sortable,
 * pageable table with a chart of its last numeric column. Pages of `query`
 * come from `query_page`; a vetted tool's rows are paged in the view.
 */
export const queryViewHtml: () => string = onFirstUse(() =>
  viewDocument({ title: 'Query result', style, body, script }),
);

export function createQueryView(): Resource {
  return defineView({
    uri: queryViewUri,
    name: 'query-view',
    title: 'Query result table',
    description: 'The query tool’s result as a sortable, pageable table with a chart',
    html: queryViewHtml,
  });
}
