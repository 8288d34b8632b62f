/** RFC 5424 severities, least severe first, as MCP's logging uses them. */
export const logLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export type LogLevel = (typeof logLevels)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (logLevels as readonly string[]).includes(value);
}

/** Whether a message at `level` passes a session filtering at `threshold`. */
export function passesLogLevel(level: LogLevel, threshold: LogLevel): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(threshold);
}
