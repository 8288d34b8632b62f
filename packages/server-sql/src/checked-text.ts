import * as z from 'zod';

/**
 * A text argument whose length is checked, not advertised: a model never
 * comes near the bounds, and each one in an input schema costs tokens on
 * every turn.
 */
export function checkedText(maxLength: number): z.ZodString {
  return z
    .string()
    .refine((text) => text.length > 0, 'must not be empty')
    .refine((text) => text.length <= maxLength, `at most ${maxLength} characters`);
}
