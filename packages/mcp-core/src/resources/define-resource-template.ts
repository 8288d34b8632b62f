import { definedFields } from '../catalog/defined-fields.ts';
import type { Completer } from '../completion/completer.ts';
import type { CallContext } from '../engine/call-context.ts';
import { LocalError } from '../errors/local-error.ts';
import type {
  ContentAnnotations,
  Icon,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
} from '../protocol/mcp-types.ts';
import { checkResourceIdentity } from './define-resource.ts';
import type { ResourceReadValue } from './resource-contents.ts';
import { compileUriTemplate, type UriTemplate } from './uri-template.ts';

export interface ResourceTemplateDefinitionInput {
  /** An RFC 6570 template, such as `sqlite://{database}/tables/{table}`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  meta?: Record<string, unknown>;
  /** Suggestions for each variable, offered through completion/complete. */
  complete?: Record<string, Completer>;
  /** The concrete resources of this template that `resources/list` should show, if any. */
  list?(context: CallContext): ResourceDescriptor[] | Promise<ResourceDescriptor[]>;
  /** Reads one expansion. Throw ResourceNotFound-style ProtocolErrors for values that name nothing. */
  read(
    uri: string,
    variables: Record<string, string>,
    context: CallContext,
  ): ResourceReadValue | Promise<ResourceReadValue>;
}

/** A validated resource template, ready to register on a server. */
export interface ResourceTemplate {
  readonly name: string;
  readonly descriptor: ResourceTemplateDescriptor;
  readonly matcher: UriTemplate;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly mimeType: string | undefined;
  list: ResourceTemplateDefinitionInput['list'];
  read: ResourceTemplateDefinitionInput['read'];
}

/**
 * Defines a family of resources by URI template. A read of any URI that
 * matches the template reaches `read` with the decoded variables.
 *
 * @example
 * const table = defineResourceTemplate({
 *   uriTemplate: 'sqlite://main/tables/{table}', name: 'table',
 *   complete: { table: () => db.tableNames() },
 *   read: (uri, { table }) => JSON.stringify(db.describe(table)),
 * });
 */
export function defineResourceTemplate(definition: ResourceTemplateDefinitionInput): ResourceTemplate {
  const { uriTemplate, name } = definition;
  checkResourceIdentity(`Resource template "${uriTemplate}"`, uriTemplate, name);
  if (typeof definition.read !== 'function') {
    throw new LocalError('tool_definition_invalid', `Resource template "${uriTemplate}" needs a read function`);
  }
  const matcher = compileUriTemplate(uriTemplate);
  const complete = { ...definition.complete };
  for (const variable of Object.keys(complete)) {
    if (!matcher.variables.includes(variable)) {
      throw new LocalError(
        'tool_definition_invalid',
        `Resource template "${uriTemplate}" completes "${variable}", which is not one of its variables`,
      );
    }
  }
  const { title, description, mimeType, annotations, icons, meta } = definition;
  const descriptor: ResourceTemplateDescriptor = {
    uriTemplate,
    name,
    ...definedFields({ title, description, mimeType, annotations, icons, _meta: meta }),
  };
  return Object.freeze({
    name,
    descriptor: Object.freeze(descriptor),
    matcher,
    complete: Object.freeze(complete),
    mimeType: definition.mimeType,
    list: definition.list,
    read: definition.read,
  });
}
