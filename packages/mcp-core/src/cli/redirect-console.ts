// Taken with getBuiltinModule: imported as an ES module, node:util builds a facade of every export at start.
const { format } = process.getBuiltinModule('node:util');

/**
 * On stdio, stdout belongs to the protocol: one stray console.log from a
 * dependency corrupts the stream. Route every console method to stderr.
 */
export function redirectConsoleToStderr(): void {
  const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${format(...args)}\n`);
  };
  for (const method of ['log', 'info', 'debug', 'warn', 'trace', 'dir', 'table'] as const) {
    console[method] = toStderr;
  }
}
