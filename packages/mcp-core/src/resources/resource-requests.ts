import { decodeListCursor, encodeListCursor } from '../catalog/list-cursor.ts';
import type { CallContext } from '../engine/call-context.ts';
import type { ServerCore } from '../engine/server-core.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import type { ResourceContents, ResourceDescriptor } from '../protocol/mcp-types.ts';
import { toResourceContents } from './resource-contents.ts';

/** A URI resolved to what reads it: a registered resource or a template that matches. */
export interface ResolvedResource {
  read(context: CallContext): Promise<ResourceContents[]>;
}

export function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(
    JsonRpcErrorCode.ResourceNotFound,
    `Resource not found: ${uri.slice(0, 200)}. Call resources/list or resources/templates/list for what exists.`,
    { uri },
  );
}

export function requireUri(params: JsonRpcParams, method: string): string {
  const { uri } = params;
  if (typeof uri !== 'string' || uri === '') {
    throw new ProtocolError(JsonRpcErrorCode.InvalidParams, `${method} needs params.uri, the resource URI as a string`);
  }
  return uri;
}

/** Finds what serves a URI: a resource of that exact URI first, then the first template that matches. */
export function resolveResource(core: ServerCore, uri: string): ResolvedResource | undefined {
  const resource = core.resources.get(uri);
  if (resource !== undefined) {
    return {
      read: async (context) => toResourceContents(await resource.read(context), uri, resource.descriptor.mimeType),
    };
  }
  for (const template of core.resourceTemplates.list()) {
    const variables = template.matcher.match(uri);
    if (variables === undefined) continue;
    return {
      read: async (context) => toResourceContents(await template.read(uri, variables, context), uri, template.mimeType),
    };
  }
  return undefined;
}

export async function readResource(
  core: ServerCore,
  params: JsonRpcParams,
  context: CallContext,
): Promise<Record<string, unknown>> {
  const uri = requireUri(params, 'resources/read');
  const resolved = resolveResource(core, uri);
  if (resolved === undefined) throw resourceNotFound(uri);
  try {
    return { contents: await resolved.read(context) };
  } catch (error) {
    // A ToolError is a message written for the reader; resources have no isError, so it becomes the error.
    if (ToolError.isInstance(error)) throw new ProtocolError(JsonRpcErrorCode.InternalError, error.message, { uri });
    throw error;
  }
}

/** Registered resources and what templates list, ordered by URI and paged by it. */
export async function listResources(
  core: ServerCore,
  params: JsonRpcParams,
  context: CallContext,
): Promise<Record<string, unknown>> {
  const all: ResourceDescriptor[] = core.resources.list().map((resource) => resource.descriptor);
  for (const template of core.resourceTemplates.list()) {
    if (template.list !== undefined) all.push(...(await template.list(context)));
  }
  all.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  let start = 0;
  if (params.cursor !== undefined) {
    const after = decodeListCursor(params.cursor, 'resources/list');
    start = all.findIndex((resource) => resource.uri > after);
    if (start === -1) start = all.length;
  }
  const resources = all.slice(start, start + core.pageSize);
  const last = resources.at(-1);
  const result: Record<string, unknown> = { resources };
  if (start + core.pageSize < all.length && last !== undefined) result.nextCursor = encodeListCursor(last.uri);
  return result;
}

export function listResourceTemplates(core: ServerCore, params: JsonRpcParams): Record<string, unknown> {
  const page = core.resourceTemplates.page(params.cursor, core.pageSize, 'resources/templates/list', (t) => t.name);
  const result: Record<string, unknown> = { resourceTemplates: page.items };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}
