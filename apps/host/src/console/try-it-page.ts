import type { CallToolResult, ToolDescriptor } from '@toolshed/mcp-core';
import type { Host, HostToolRow } from '../create-host.ts';
import type { ConsoleCall } from './console-calls.ts';
import { html, type SafeHtml } from './html.ts';
import { type FormSchema, schemaField } from './schema-form.ts';

/** A tool as the host serves it: its row, its upstream descriptor, and its input schema. */
export interface ServedTool {
  row: HostToolRow;
  descriptor: ToolDescriptor;
  schema: FormSchema;
}

/** The tool served under an exposed name now. */
export function findTool(host: Host, name: string): ServedTool | undefined {
  const row = host.tools().find((candidate) => candidate.tool === name);
  if (row === undefined) return undefined;
  const upstream = host.upstreams.find((candidate) => candidate.entry.name === row.server);
  const descriptor = upstream?.tools.find((tool) => tool.name === row.upstreamTool);
  return descriptor === undefined ? undefined : { row, descriptor, schema: descriptor.inputSchema as FormSchema };
}

export function toolListPage(host: Host): SafeHtml {
  const rows = host.tools();
  return html`<p>Pick a tool to call it with a form made from its input schema. Tools that ask first wait on the <a href="/approvals">approvals</a> page.</p>
<ul>${rows.map((row) => html`<li><a href="/try/${encodeURIComponent(row.tool)}">${row.tool}</a>${row.approval ? ' (asks first)' : ''}</li>`)}</ul>`;
}

/** The form for one tool: every field from its input schema, filled with `args` when drawn again. */
export function tryItForm(tool: ServedTool, args: Record<string, unknown>, csrf: string): SafeHtml {
  const { descriptor, row, schema } = tool;
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {});
  return html`<p>${descriptor.description ?? ''}</p>
${row.approval ? html`<p class="notice">This tool asks first: the call will wait on the <a href="/approvals">approvals</a> page.</p>` : ''}
<form method="post" action="/try/${encodeURIComponent(row.tool)}" class="try-it">
<input type="hidden" name="csrf" value="${csrf}">
${properties.map(([key, property]) => schemaField(key, property, `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, args[key], required.has(key)))}
${properties.length === 0 ? html`<p class="hint">This tool takes no arguments.</p>` : ''}
<p><button type="submit" class="primary" name="_run" value="1">Call ${row.tool}</button></p>
</form>`;
}

function contentBlock(block: CallToolResult['content'][number]): SafeHtml {
  switch (block.type) {
    case 'text':
      return html`<pre>${block.text}</pre>`;
    case 'image':
      return html`<img class="result-image" alt="image result (${block.mimeType})" src="data:${block.mimeType.replace(/[^\w/.+-]/g, '')};base64,${block.data.replace(/[^A-Za-z0-9+/=]/g, '')}">`;
    case 'audio':
      return html`<audio controls src="data:${block.mimeType.replace(/[^\w/.+-]/g, '')};base64,${block.data.replace(/[^A-Za-z0-9+/=]/g, '')}"></audio>`;
    case 'resource_link':
      return html`<p>Resource: <code>${block.uri}</code> ${block.name}</p>`;
    case 'resource':
      return html`<p>Resource <code>${block.resource.uri}</code></p><pre>${'text' in block.resource ? String(block.resource.text) : '(binary)'}</pre>`;
    default:
      return html`<pre>${JSON.stringify(block, null, 2)}</pre>`;
  }
}

/**
 * A try-it call: running (the page refreshes itself), or its result: text,
 * images, structured JSON, errors. With the tool's view, the view comes
 * first and the text is folded away under it: a closed section is not laid
 * out, and a thousand rows pretty-printed would hold up the view's own start
 * on the same page.
 */
export function callResultPage(call: ConsoleCall, view?: SafeHtml): SafeHtml {
  const argumentsBlock = html`<details><summary>Arguments</summary><pre>${JSON.stringify(call.arguments, null, 2)}</pre></details>`;
  if (call.state === 'running') {
    return html`<p class="notice" role="status">${call.tool} is running. If it asks first, approve it on the <a href="/approvals">approvals</a> page; this page refreshes itself.</p>${argumentsBlock}`;
  }
  if (call.state === 'failed') {
    return html`<p class="notice error" role="alert">The call failed: ${call.error ?? 'unknown error'}</p>${argumentsBlock}`;
  }
  const result = call.result as CallToolResult;
  const took = `${(call.finishedAt ?? call.startedAt) - call.startedAt} ms`;
  const texts = html`<section aria-label="Result" class="result${result.isError === true ? ' is-error' : ''}">${result.content.map(contentBlock)}</section>
${result.structuredContent === undefined ? '' : html`<h2>Structured result</h2><pre class="structured">${JSON.stringify(result.structuredContent, null, 2)}</pre>`}`;
  return html`${
    result.isError === true
      ? html`<p class="notice error" role="alert">${call.tool} answered with an error (${took}).</p>`
      : html`<p class="notice" role="status">${call.tool} finished (${took}).</p>`
  }
${view}
${view === undefined ? texts : html`<details><summary>The result as text</summary>${texts}</details>`}
${argumentsBlock}
<p><a href="/try/${encodeURIComponent(call.tool)}">Call ${call.tool} again</a></p>`;
}
