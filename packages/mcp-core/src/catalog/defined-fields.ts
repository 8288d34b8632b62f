/**
 * The fields whose value is defined, so a descriptor leaves optional members
 * out instead of sending them as undefined.
 */
export function definedFields<Fields extends Record<string, unknown>>(
  fields: Fields,
): { [Key in keyof Fields]?: Exclude<Fields[Key], undefined> } {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) result[key] = value;
  return result as { [Key in keyof Fields]?: Exclude<Fields[Key], undefined> };
}
