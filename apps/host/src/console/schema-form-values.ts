import { childPointer, type FormSchema, schemaType } from './schema-form.ts';

/** The last value a form sent for a field (a checkbox's hidden `false` comes first, its `true` after). */
function last(form: URLSearchParams, name: string): string | undefined {
  const values = form.getAll(name);
  return values.at(-1);
}

/**
 * Reads a form drawn by `schemaField` back into a value of the schema,
 * guided by the schema rather than by field names: empty optional fields
 * are left out, numbers are numbers, and JSON text areas are parsed (text
 * that is not JSON is kept as a string, for the tool's own validation to
 * name). The tool checks the result against its schema; this only reads.
 */
export function readSchemaValue(
  schema: FormSchema,
  form: URLSearchParams,
  pointer: string,
  required: boolean,
): unknown {
  const json = last(form, `${pointer}#json`);
  if (json !== undefined) {
    if (json.trim() === '') return required ? undefined : undefined;
    try {
      return JSON.parse(json);
    } catch {
      return json;
    }
  }
  const type = schemaType(schema);
  if (schema.enum?.every((option) => typeof option === 'string')) {
    const chosen = last(form, pointer);
    return chosen === undefined || chosen === '' ? undefined : chosen;
  }
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      const requiredNames = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const value = readSchemaValue(property, form, childPointer(pointer, key), requiredNames.has(key));
        if (value !== undefined) result[key] = value;
      }
      return Object.keys(result).length === 0 && !required ? undefined : result;
    }
    case 'array': {
      const count = Number(last(form, `${pointer}#count`) ?? 0);
      const items: unknown[] = [];
      for (let index = 0; index < Math.min(count, 1000); index++) {
        items.push(readSchemaValue(schema.items ?? {}, form, childPointer(pointer, index), true) ?? null);
      }
      return items.length === 0 && !required ? undefined : items;
    }
    case 'boolean': {
      const chosen = last(form, pointer);
      return chosen === undefined ? undefined : chosen === 'true';
    }
    case 'integer':
    case 'number': {
      const text = last(form, pointer);
      if (text === undefined || text.trim() === '') return undefined;
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    default: {
      const text = last(form, pointer);
      if (text === undefined || (text === '' && !required)) return undefined;
      return text;
    }
  }
}

/** Where a JSON Pointer leads, as keys. */
function pointerKeys(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function schemaAt(schema: FormSchema, keys: readonly string[]): FormSchema | undefined {
  let current: FormSchema | undefined = schema;
  for (const key of keys) {
    if (current === undefined) return undefined;
    current = schemaType(current) === 'array' ? current.items : current.properties?.[key];
  }
  return current;
}

/** The empty value a new item of a schema starts as. */
function emptyValue(schema: FormSchema | undefined): unknown {
  const type = schema === undefined ? undefined : schemaType(schema);
  if (type === 'object') return {};
  if (type === 'array') return [];
  return undefined;
}

/**
 * The arguments after an "add item" or "remove item" button: one empty item
 * appended to the array at `add`, or the item at `remove` taken out. Keys
 * like `__proto__` are refused: they would reach the object's prototype.
 */
export function editArray(
  args: Record<string, unknown>,
  schema: FormSchema,
  edit: { add?: string | undefined; remove?: string | undefined },
): Record<string, unknown> {
  const target = edit.add ?? edit.remove;
  if (target === undefined) return args;
  const keys = pointerKeys(target);
  if (keys.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')) return args;
  const arrayKeys = edit.add !== undefined ? keys : keys.slice(0, -1);
  const copy = structuredClone(args) as Record<string, unknown>;
  let parent: Record<string, unknown> | unknown[] = copy;
  for (const [index, key] of arrayKeys.entries()) {
    const last = index === arrayKeys.length - 1;
    const container = parent as Record<string, unknown>;
    let next = container[key];
    if (next === undefined || next === null || typeof next !== 'object') {
      next = last || schemaType(schemaAt(schema, arrayKeys.slice(0, index + 1)) ?? {}) === 'array' ? [] : {};
      container[key] = next;
    }
    parent = next as Record<string, unknown>;
  }
  if (!Array.isArray(parent)) return args;
  if (edit.add !== undefined) parent.push(emptyValue(schemaAt(schema, [...keys, '0'])));
  else parent.splice(Number(keys.at(-1)), 1);
  return copy;
}
