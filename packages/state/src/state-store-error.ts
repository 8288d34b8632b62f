const stateStoreErrorBrand = Symbol.for('@toolshed/state/StateStoreError');

/**
 * The store cannot be opened or reached. Its message is one sentence a
 * person can act on, and never holds a password.
 *
 * @example
 * if (StateStoreError.isInstance(error)) process.exitCode = 2;
 */
export class StateStoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    Object.defineProperty(this, stateStoreErrorBrand, { value: true });
    this.name = 'StateStoreError';
  }

  /** Works across copies of this package loaded in one process. */
  static isInstance(value: unknown): value is StateStoreError {
    return typeof value === 'object' && value !== null && stateStoreErrorBrand in value;
  }
}
