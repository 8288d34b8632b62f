type SchemaNode = Record<string, unknown>;

/** Keywords that only constrain values of one JSON type, so they move into that type's branch. */
const keywordsByType: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
  ],
};
const typeSpecificKeywords = new Set(Object.values(keywordsByType).flat());

/** Where a schema holds one subschema, and where it holds a list or a map of them. */
const singleSubschemas = [
  'items',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const listSubschemas = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const mapSubschemas = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const subschemaKind = new Map<string, 'single' | 'list' | 'map'>([
  ...singleSubschemas.map((keyword) => [keyword, 'single'] as const),
  ...listSubschemas.map((keyword) => [keyword, 'list'] as const),
  ...mapSubschemas.map((keyword) => [keyword, 'map'] as const),
]);

function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullBranch(value: unknown): boolean {
  return isSchemaNode(value) && value.type === 'null' && Object.keys(value).length === 1;
}

/**
 * `type: ["string", "null"]` becomes `anyOf: [{type: "string", ...}, {type: "null"}]`:
 * each type's own keywords go into its branch; annotations, `enum` and
 * `const` stay where they were, since they apply whatever the type.
 */
function splitTypeList(node: SchemaNode, types: readonly string[]): SchemaNode {
  const branches = types.map((type) => {
    const branch: SchemaNode = { type };
    for (const keyword of keywordsByType[type] ?? []) if (keyword in node) branch[keyword] = node[keyword];
    return branch;
  });
  const rest: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword !== 'type' && !typeSpecificKeywords.has(keyword)) rest[keyword] = value;
  }
  if (rest.anyOf === undefined) return { ...rest, anyOf: branches };
  const { anyOf, allOf, ...others } = rest;
  return { ...others, allOf: [...(Array.isArray(allOf) ? allOf : []), { anyOf }, { anyOf: branches }] };
}

/**
 * An optional input property that may also be null: a model omits it just
 * as well, so the null branch (and a null default) goes and the plain type
 * remains — the shape every function-calling front end takes.
 */
function withoutNull(node: SchemaNode): SchemaNode {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || !branches.some(isNullBranch)) return node;
  const kept = branches.filter((branch) => !isNullBranch(branch));
  const { anyOf: _dropped, ...rest } = node;
  if (rest.default === null) delete rest.default;
  if (Array.isArray(rest.enum)) rest.enum = rest.enum.filter((value) => value !== null);
  const only = kept[0];
  if (kept.length === 1 && isSchemaNode(only) && Object.keys(only).every((keyword) => !(keyword in rest))) {
    return { ...rest, ...only };
  }
  return { ...rest, anyOf: kept };
}

/**
 * `z.string().describe(…).nullable()` puts the description inside the
 * string branch, where some front ends never show it to the model: it moves
 * up beside the `anyOf`.
 */
function liftAnnotations(node: SchemaNode): SchemaNode {
  const branches = node.anyOf;
  if (!Array.isArray(branches)) return node;
  const kept = branches.filter((branch) => !isNullBranch(branch));
  const only = kept[0];
  if (kept.length !== 1 || !isSchemaNode(only)) return node;
  const lifted: SchemaNode = { ...only };
  const result: SchemaNode = { ...node };
  for (const keyword of ['title', 'description']) {
    if (keyword in lifted && !(keyword in result)) {
      result[keyword] = lifted[keyword];
      delete lifted[keyword];
    }
  }
  result.anyOf = branches.map((branch) => (branch === only ? lifted : branch));
  return result;
}

/**
 * zod writes every integer it was given no bound for as
 * `minimum: -9007199254740991, maximum: 9007199254740991`: a dozen tokens
 * a field that say nothing a model can use (the tool's own check still
 * refuses what is out of range), so they go.
 */
function dropSafeIntegerBounds(node: SchemaNode): void {
  const { type } = node;
  if (type !== 'integer' && !(Array.isArray(type) && type.includes('integer'))) return;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
}

function portableNode(node: SchemaNode, io: 'input' | 'output'): SchemaNode {
  let result: SchemaNode = { ...node };
  // Visits the keywords a node has (two or three, mostly), not each of the eighteen that can hold subschemas.
  for (const keyword of Object.keys(node)) {
    const kind = subschemaKind.get(keyword);
    if (kind === undefined) continue;
    const child = node[keyword];
    if (kind === 'single') {
      if (isSchemaNode(child)) result[keyword] = portableNode(child, io);
    } else if (kind === 'list') {
      if (Array.isArray(child)) {
        result[keyword] = child.map((item) => (isSchemaNode(item) ? portableNode(item, io) : item));
      }
    } else if (isSchemaNode(child)) {
      const mapped: SchemaNode = {};
      for (const [name, item] of Object.entries(child))
        mapped[name] = isSchemaNode(item) ? portableNode(item, io) : item;
      result[keyword] = mapped;
    }
  }
  if (io === 'input' && isSchemaNode(result.properties)) {
    const required: unknown[] = Array.isArray(result.required) ? result.required : [];
    for (const [name, child] of Object.entries(result.properties)) {
      if (!required.includes(name) && isSchemaNode(child)) result.properties[name] = withoutNull(child);
    }
  }
  dropSafeIntegerBounds(result);
  if (Array.isArray(result.type)) {
    const types = [...new Set(result.type as string[])];
    if (types.length === 1) result.type = types[0];
    else result = splitTypeList(result, types);
  }
  return liftAnnotations(result);
}

/**
 * Rewrites a tool's JSON Schema into the form that function-calling front
 * ends accept: no `type` lists (several reject them, and the MCP Inspector
 * flags them), `anyOf` instead; and in input schemas, no null on optional
 * properties. Values valid before stay valid, except an explicit null for an
 * optional input, which the advertised schema no longer invites (the tool
 * still accepts it).
 *
 * @example
 * toPortableJsonSchema({ type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] }, 'output');
 * // → { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['a'] }
 */
export function toPortableJsonSchema(schema: SchemaNode, io: 'input' | 'output'): SchemaNode {
  return portableNode(schema, io);
}
