// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { createHash } = process.getBuiltinModule('node:crypto');

const valid = /^[A-Za-z0-9_-]{1,64}$/;

/** The first 8 hex digits of the SHA-256 of `text`: what shortened and disambiguated names end in. */
export function nameDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The name a client sees for an upstream tool: `prefix`, the separator, the
 * tool's own name. When that is not a valid MCP tool name (too long, or with
 * characters outside `[A-Za-z0-9_-]`), it is cut and cleaned and ends in a
 * digest of the full name — the same for the same inputs on every start and
 * after any config edit, and different for different tools.
 *
 * @example
 * composedToolName('github', '_', 'create_issue'); // 'github_create_issue'
 */
export function composedToolName(prefix: string, separator: string, tool: string): string {
  const full = prefix === '' ? tool : `${prefix}${separator}${tool}`;
  if (valid.test(full)) return full;
  const digest = nameDigest(full);
  const cleaned = full.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `${cleaned.slice(0, 64 - digest.length - 1)}-${digest}`;
}

/** Whether a tool name matches a pattern where `*` stands for any run of characters. */
export function matchesPattern(name: string, pattern: string): boolean {
  const expression = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${expression}$`).test(name);
}
