import { html, type SafeHtml } from './html.ts';

/** The parts of a JSON Schema the console builds forms from; anything else is edited as JSON. */
export type FormSchema = {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, FormSchema>;
  required?: string[];
  items?: FormSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  /** Unions: the form cannot say which branch, so they are edited as JSON. */
  anyOf?: unknown[];
  oneOf?: unknown[];
};

/** Where a value sits in the arguments, as a JSON Pointer (RFC 6901): also its form field's name. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The `id` of a pointer's field: pointers may hold any character, ids here only safe ones. */
export function fieldId(pointer: string): string {
  return `field${Buffer.from(pointer).toString('hex')}`;
}

/** The single type a schema names, ignoring `null` in a list of types. */
export function schemaType(schema: FormSchema): string | undefined {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    return types.length === 1 ? types[0] : undefined;
  }
  if (schema.type !== undefined) return schema.type;
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

/** Long free text gets a text area: no length cap, or one over a line's worth. */
function multiline(name: string, schema: FormSchema): boolean {
  if (schema.maxLength !== undefined) return schema.maxLength > 120;
  return /content|text|body|sql|query|html|markdown|message|script|json|code/i.test(name);
}

function describedBy(pointer: string, schema: FormSchema): SafeHtml {
  return schema.description === undefined ? html`` : html` aria-describedby="${fieldId(pointer)}-hint"`;
}

function hint(pointer: string, schema: FormSchema): SafeHtml {
  return schema.description === undefined
    ? html``
    : html`<p class="hint" id="${fieldId(pointer)}-hint">${schema.description}</p>`;
}

function labelText(name: string, schema: FormSchema, required: boolean): string {
  return `${schema.title ?? name}${required ? ' (required)' : ''}`;
}

/**
 * A form field for one value of a JSON Schema, by its type: objects as
 * fieldsets of their properties, arrays as fieldsets of items with buttons
 * to add and remove one (plain submit buttons: the server draws the form
 * again, so no script is needed), enums as selects, booleans as checkboxes,
 * numbers and strings as inputs, and anything the form cannot say (unions,
 * untyped values) as a JSON text area. Every control has a label.
 */
export function schemaField(
  name: string,
  schema: FormSchema,
  pointer: string,
  value: unknown,
  required: boolean,
): SafeHtml {
  const id = fieldId(pointer);
  const label = labelText(name, schema, required);
  const type = schemaType(schema);
  if (schema.enum?.every((option) => typeof option === 'string')) {
    const options = schema.enum as string[];
    return html`<label for="${id}">${label}</label>${hint(pointer, schema)}<select id="${id}" name="${pointer}"${describedBy(pointer, schema)}>
${required ? '' : html`<option value="">(none)</option>`}${options.map((option) => html`<option${option === value ? html` selected` : ''}>${option}</option>`)}
</select>`;
  }
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      const values = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
      const requiredNames = new Set(schema.required ?? []);
      return html`<fieldset><legend>${label}</legend>${hint(pointer, schema)}${properties.map(([key, property]) =>
        schemaField(key, property, childPointer(pointer, key), values[key], requiredNames.has(key)),
      )}${
        properties.length === 0
          ? html`<label for="${id}">${label} as JSON</label><textarea id="${id}" name="${pointer}#json">${JSON.stringify(value ?? {}, null, 2)}</textarea>`
          : ''
      }</fieldset>`;
    }
    case 'array': {
      const items = Array.isArray(value) ? value : [];
      const itemSchema = schema.items ?? {};
      return html`<fieldset><legend>${label}</legend>${hint(pointer, schema)}
<input type="hidden" name="${pointer}#count" value="${items.length}">
${items.map(
  (
    item,
    index,
  ) => html`<div class="item">${schemaField(`${name} ${index + 1}`, itemSchema, childPointer(pointer, index), item, true)}
<button type="submit" name="_remove" value="${childPointer(pointer, index)}" formnovalidate>Remove ${name} ${index + 1}</button></div>`,
)}
<button type="submit" name="_add" value="${pointer}" formnovalidate>Add ${schema.items?.title ?? `an item to ${name}`}</button></fieldset>`;
    }
    case 'boolean':
      return html`<input type="hidden" name="${pointer}" value="false"><label for="${id}"><input type="checkbox" id="${id}" name="${pointer}" value="true"${value === true ? html` checked` : ''}${describedBy(pointer, schema)}> ${label}</label>${hint(pointer, schema)}`;
    case 'integer':
    case 'number':
      return html`<label for="${id}">${label}</label>${hint(pointer, schema)}<input type="number" id="${id}" name="${pointer}" step="${type === 'integer' ? '1' : 'any'}"${schema.minimum === undefined ? '' : html` min="${schema.minimum}"`}${schema.maximum === undefined ? '' : html` max="${schema.maximum}"`} value="${typeof value === 'number' ? value : ''}"${describedBy(pointer, schema)}>`;
    case 'string':
      return multiline(name, schema)
        ? html`<label for="${id}">${label}</label>${hint(pointer, schema)}<textarea id="${id}" name="${pointer}"${describedBy(pointer, schema)}>${typeof value === 'string' ? value : ''}</textarea>`
        : html`<label for="${id}">${label}</label>${hint(pointer, schema)}<input type="text" id="${id}" name="${pointer}" value="${typeof value === 'string' ? value : ''}"${describedBy(pointer, schema)}>`;
    default:
      return html`<label for="${id}">${label} (JSON)</label>${hint(pointer, schema)}<textarea id="${id}" name="${pointer}#json"${describedBy(pointer, schema)}>${value === undefined ? '' : JSON.stringify(value, null, 2)}</textarea>`;
  }
}
