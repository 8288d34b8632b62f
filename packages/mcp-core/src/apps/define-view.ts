import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type { ResourceContents } from '../protocol/mcp-types.ts';
import { defineResource, type Resource } from '../resources/define-resource.ts';
import { viewMimeType } from './ui-extension.ts';

export interface ViewDefinitionInput {
  /** `ui://<server>/<view>`. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** The whole view: one self-contained HTML document, scripts and styles inline. */
  html: string | (() => string);
}

/**
 * The policy every view declares: no external origin at all. Declared
 * explicitly (empty lists), so a host applies its strictest policy rather
 * than guessing.
 */
const noExternalOrigins = Object.freeze({
  connectDomains: [],
  resourceDomains: [],
  frameDomains: [],
  baseUriDomains: [],
});

/**
 * Defines an MCP Apps view: a `ui://` resource served as
 * `text/html;profile=mcp-app`, with its content security policy in
 * `_meta.ui.csp` on both the list entry and the read.
 *
 * @example
 * const view = defineView({ uri: 'ui://sql/query', name: 'query-view', html: () => queryViewHtml });
 */
export function defineView(definition: ViewDefinitionInput): Resource {
  const { uri, html } = definition;
  if (!uri.startsWith('ui://')) {
    throw new LocalError('tool_definition_invalid', `A view's URI must start with ui://; got "${uri}"`);
  }
  const meta = { ui: { csp: noExternalOrigins } };
  return defineResource({
    uri,
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    mimeType: viewMimeType,
    meta,
    read: (_context: CallContext): ResourceContents => ({
      uri,
      mimeType: viewMimeType,
      text: typeof html === 'function' ? html() : html,
      _meta: meta,
    }),
  });
}
