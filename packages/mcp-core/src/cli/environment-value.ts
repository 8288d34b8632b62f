/**
 * Whether a value a host handed over is an MCP bundle's setting the user left
 * blank: some bundle hosts pass the unfilled `${user_config.NAME}` placeholder
 * through instead of nothing, and it is never a value anybody meant.
 */
export function isUnfilledSetting(value: string): boolean {
  return /^\$\{user_config\.[^}]*\}$/.test(value);
}

/** An option's value from the environment, or undefined when it is not set (absent, empty, or an unfilled setting). */
export function environmentValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' || isUnfilledSetting(value) ? undefined : value;
}
