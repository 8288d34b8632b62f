import { hasBrand, markBranded } from './brand.ts';

const localErrorBrand = Symbol.for('@toolshed/mcp-core/LocalError');

/** The string codes of errors that stay in this process and never cross the wire. */
export type LocalErrorCode =
  | 'config_invalid'
  | 'tool_definition_invalid'
  | 'tool_name_taken'
  | 'content_invalid'
  | 'transport_closed'
  | 'connection_closed'
  | 'request_cancelled'
  | 'request_timeout'
  | 'elicitation_unavailable';

/**
 * An error raised and handled inside this process: bad configuration, a tool
 * defined wrongly, a closed transport. Carries a string `code` to branch on.
 *
 * @example
 * if (LocalError.isInstance(error) && error.code === 'config_invalid') process.exitCode = 2;
 */
export class LocalError extends Error {
  readonly code: LocalErrorCode;

  constructor(code: LocalErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    markBranded(this, localErrorBrand);
    this.name = 'LocalError';
    this.code = code;
  }

  static isInstance(value: unknown): value is LocalError {
    return hasBrand(value, localErrorBrand);
  }
}
