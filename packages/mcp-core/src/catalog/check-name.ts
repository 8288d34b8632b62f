import { LocalError } from '../errors/local-error.ts';

const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Tool and prompt names: what clients accept everywhere, `^[A-Za-z0-9_-]{1,64}$`. */
export function checkName(kind: 'Tool' | 'Prompt', name: unknown): asserts name is string {
  if (typeof name !== 'string' || !namePattern.test(name)) {
    throw new LocalError(
      'tool_definition_invalid',
      `${kind} name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-"`,
    );
  }
}
