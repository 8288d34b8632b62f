import { hasBrand, markBranded } from './brand.ts';

const toolErrorBrand = Symbol.for('@toolshed/mcp-core/ToolError');

/**
 * Thrown by a tool to fail with a message meant for the model: it becomes an
 * `isError` result with exactly this text. Say what went wrong and what to do
 * instead. Any other thrown error is reported with a generic message, because
 * its text may hold paths or secrets.
 *
 * @example
 * throw new ToolError('No city named "Pari". Did you mean "Paris"?');
 */
export class ToolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    markBranded(this, toolErrorBrand);
    this.name = 'ToolError';
  }

  static isInstance(value: unknown): value is ToolError {
    return hasBrand(value, toolErrorBrand);
  }
}
