const secretKeyPattern =
  /pass(word|phrase)?|secret|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key/i;
const bearerPattern = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const maxDepth = 8;

/**
 * Copies log data with secret-looking values replaced, so that a tool logging
 * its options or a failed request does not send credentials to the client.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(bearerPattern, '$1 [redacted]');
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= maxDepth) return '[nested too deep]';
  if (value instanceof Error) return { name: value.name, message: redactSecrets(value.message, depth + 1) };
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = secretKeyPattern.test(key) ? '[redacted]' : redactSecrets(item, depth + 1);
  }
  return out;
}
