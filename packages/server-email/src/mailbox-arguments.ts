import * as z from 'zod';

/**
 * A short string checked at run time only: the checks stay out of the
 * advertised schema, which a model pays for on every turn.
 */
export function shortText(maxLength: number): z.ZodString {
  return z
    .string()
    .refine(
      (value) => value.length >= 1 && value.length <= maxLength && !/\p{Cc}/u.test(value),
      `1 to ${maxLength} characters, no control characters`,
    );
}

// The two below are functions rather than constants so that a server without IMAP never builds them.

/** A mailbox name as list_mailboxes gives it; INBOX when left out. */
export function mailboxArgument(): z.ZodDefault<z.ZodString> {
  return shortText(1000).default('INBOX');
}

/**
 * One message's UID: one positive integer, never a set or range such as
 * `1:*` or `1,2`, so one call can touch one message only. The range is
 * checked, not advertised: a UID comes from this server's own results.
 */
export function uidArgument(): z.ZodNumber {
  return z
    .number()
    .int()
    .refine((uid) => uid >= 1 && uid <= 4_294_967_295, 'a UID from search_messages');
}
