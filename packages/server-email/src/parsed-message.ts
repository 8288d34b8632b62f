import { untrustedLine } from '@toolshed/guards';
import type { AddressObject, ParsedMail } from 'mailparser';
import type { MailReadingContext } from './mail-reading-context.ts';

/** One message as fetched and parsed, with what the server said about it. */
export interface ParsedMessage {
  parsed: ParsedMail;
  flags: string[];
  size: number;
  /** The message was larger than a call may fetch and was cut. */
  truncated: boolean;
  addresses(field: 'from' | 'to' | 'cc'): string[];
}

function addressTexts(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return objects.flatMap((object) =>
    object.value.map((entry) => {
      const name = entry.name.trim();
      const address = entry.address ?? '';
      return untrustedLine(name === '' ? address : address === '' ? name : `${name} <${address}>`);
    }),
  );
}

/** A message's flags without `\\Recent`, which only says which session saw it first. */
export function sessionIndependentFlags(flags: Set<string> | undefined): string[] {
  return [...(flags ?? [])].filter((flag) => flag !== '\\Recent');
}

/**
 * Fetches one message by UID from a mailbox opened with EXAMINE, its source
 * with BODY.PEEK (so \Seen does not move), at most the bytes a call may
 * fetch, and parses it. Undefined when no message has that UID.
 */
export async function fetchParsedMessage(
  context: MailReadingContext,
  mailbox: string,
  uid: number,
): Promise<ParsedMessage | undefined> {
  const cap = context.limits.maxCallBytes;
  const fetched = await context.connection.withMailbox(mailbox, 'examine', async (client, opened) => {
    context.uidValidities.set(mailbox, opened.uidValidity);
    const message = await client.fetchOne(
      String(uid),
      { uid: true, flags: true, size: true, source: { start: 0, maxLength: cap } },
      { uid: true },
    );
    return message === false || message.uid !== uid ? undefined : message;
  });
  if (fetched === undefined) return undefined;
  const source = fetched.source ?? Buffer.alloc(0);
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(source, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const size = fetched.size ?? source.length;
  return {
    parsed,
    flags: sessionIndependentFlags(fetched.flags),
    size,
    truncated: size > source.length,
    addresses: (field) => addressTexts(parsed[field]),
  };
}
