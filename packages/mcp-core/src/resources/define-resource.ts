import { definedFields } from '../catalog/defined-fields.ts';
import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type { ContentAnnotations, Icon, ResourceDescriptor } from '../protocol/mcp-types.ts';
import type { ResourceReadValue } from './resource-contents.ts';

export interface ResourceDefinitionInput {
  /** The resource's identity, an absolute URI (`file:///…`, `db://main/schema`, `https://…`). */
  uri: string;
  /** Short identifier; shown when there is no title. */
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when known without reading. */
  size?: number;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  meta?: Record<string, unknown>;
  read(context: CallContext): ResourceReadValue | Promise<ResourceReadValue>;
}

/** A validated resource, ready to register on a server. */
export interface Resource {
  readonly uri: string;
  readonly descriptor: ResourceDescriptor;
  read(context: CallContext): ResourceReadValue | Promise<ResourceReadValue>;
}

/** Checks what every resource and template shares: a name, and an absolute URI. */
export function checkResourceIdentity(what: string, uri: string, name: unknown): void {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new LocalError('tool_definition_invalid', `${what} needs a name`);
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    throw new LocalError('tool_definition_invalid', `${what} needs an absolute URI with a scheme; got "${uri}"`);
  }
}

/**
 * Defines a resource at a fixed URI. `read` returns text, bytes, or
 * contents; the server turns them into a `resources/read` result.
 *
 * @example
 * const schema = defineResource({
 *   uri: 'sqlite://main/schema', name: 'schema', mimeType: 'application/sql',
 *   read: () => db.schemaText(),
 * });
 */
export function defineResource(definition: ResourceDefinitionInput): Resource {
  const { uri, name } = definition;
  checkResourceIdentity(`Resource "${uri}"`, uri, name);
  if (typeof definition.read !== 'function') {
    throw new LocalError('tool_definition_invalid', `Resource "${uri}" needs a read function`);
  }
  const { title, description, mimeType, size, annotations, icons, meta } = definition;
  const descriptor: ResourceDescriptor = {
    uri,
    name,
    ...definedFields({ title, description, mimeType, size, annotations, icons, _meta: meta }),
  };
  return Object.freeze({ uri, descriptor: Object.freeze(descriptor), read: definition.read });
}
