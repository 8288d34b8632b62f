import type { Readable } from 'node:stream';
import { untrustedLine } from '@toolshed/guards';
import type { AddressObject, AttachmentStream, MessageText } from 'mailparser';
import type { MailReadingContext } from './mail-reading-context.ts';

// Most mail is smaller than this: it comes whole with the flags, in one round trip; larger mail is streamed.
const wholeInOneFetch = 1024 * 1024;

/** One attachment as the parse met it: its size always, its bytes only when the caller asked to keep them. */
export interface ParsedAttachment {
  filename: string | undefined;
  contentType: string;
  /** Decoded bytes, counted whole even when not kept. */
  size: number;
  /** The decoded bytes, when kept. */
  content: Buffer | undefined;
}

/** What a message says, read from its headers and parts as they stream by. */
export interface MailContent {
  subject: string | undefined;
  from: AddressObject | undefined;
  to: AddressObject | AddressObject[] | undefined;
  cc: AddressObject | AddressObject[] | undefined;
  replyTo: AddressObject | undefined;
  date: Date | undefined;
  messageId: string | undefined;
  references: string | string[] | undefined;
  text: string | undefined;
  html: string | undefined;
  attachments: ParsedAttachment[];
}

/** One message as fetched and parsed, with what the server said about it. */
export interface ParsedMessage {
  parsed: MailContent;
  flags: string[];
  size: number;
  /** The message was larger than a call may fetch and was cut. */
  truncated: boolean;
  addresses(field: 'from' | 'to' | 'cc'): string[];
}

/**
 * How many decoded bytes of an attachment to keep, by its number (from 1),
 * its name, and the bytes of the attachments kept before it: 0 keeps none.
 * One larger than this is measured and not kept.
 */
export type KeepAttachment = (index: number, filename: string | undefined, keptBytes: number) => number;

/** Where an attachment's bytes go as they stream by, instead of memory: a file being written, say. */
export interface AttachmentSink {
  /** Takes the next bytes; the stream waits for it. */
  write(chunk: Buffer): Promise<void>;
}

/** What the parse does with attachments: keeps some in memory, streams one to a sink; by default counts them only. */
export interface AttachmentHandling {
  keep?: KeepAttachment;
  sink?: (index: number, filename: string | undefined) => AttachmentSink | undefined;
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

/** Counts an attachment's bytes as they pass, keeping them only while they fit what the caller keeps. */
function collectAttachment(
  stream: AttachmentStream,
  index: number,
  handling: AttachmentHandling,
  kept: { bytes: number },
): Promise<ParsedAttachment> {
  // mailparser goes on to the next part only after release(): the ones before have been counted by now.
  const limit = handling.keep?.(index, stream.filename, kept.bytes) ?? 0;
  const sink = handling.sink?.(index, stream.filename);
  const attachment: ParsedAttachment = {
    filename: stream.filename,
    contentType: stream.contentType,
    size: 0,
    content: undefined,
  };
  let chunks: Buffer[] | undefined = limit > 0 ? [] : undefined;
  let failure: unknown;
  // Typed as a plain Stream by @types/mailparser; it is a Readable (a Transform).
  const content = stream.content as Readable;
  return new Promise((resolve, reject) => {
    stream.content.on('data', (chunk: Buffer) => {
      attachment.size += chunk.length;
      if (sink !== undefined) {
        if (failure !== undefined) return;
        // Held back while the sink takes the bytes: no more than one chunk waits in memory.
        content.pause();
        sink.write(chunk).then(
          () => content.resume(),
          (error: unknown) => {
            // The rest is drained unwritten: mailparser must reach the end of the part to finish the message.
            failure = error;
            content.resume();
          },
        );
        return;
      }
      if (chunks === undefined) return;
      if (attachment.size > limit) chunks = undefined;
      else chunks.push(chunk);
    });
    stream.content.on('end', () => {
      if (chunks !== undefined) {
        attachment.content = Buffer.concat(chunks, attachment.size);
        kept.bytes += attachment.size;
      }
      chunks = undefined;
      stream.release();
      if (failure === undefined) resolve(attachment);
      else reject(failure);
    });
  });
}

let mailparser: Promise<typeof import('mailparser')> | undefined;

/**
 * Parses a message as it streams in with mailparser's MailParser: headers
 * and text are read as they come, each attachment is counted as it passes
 * and kept only when `keep` asks for it, so no more than that is ever held
 * besides the text. A message fetched whole is handed over as it is.
 */
async function parseStream(source: Readable | Buffer, handling: AttachmentHandling): Promise<MailContent> {
  // Loaded on the first read, so that a server that only sends never loads it; an import() a call would cost
  // a module lookup on every read.
  mailparser ??= import('mailparser');
  const { MailParser } = await mailparser;
  const parser = new MailParser({
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  let headers = new Map<string, unknown>();
  const attachments: Promise<ParsedAttachment>[] = [];
  const kept = { bytes: 0 };
  let text: MessageText | undefined;
  parser.on('headers', (parsed: Map<string, unknown>) => {
    headers = parsed;
  });
  parser.on('data', (part: AttachmentStream | MessageText) => {
    if (part.type !== 'attachment') {
      text = part;
      return;
    }
    const collected = collectAttachment(part, attachments.length + 1, handling, kept);
    // Awaited together once the message has ended; until then a failure must not count as unhandled.
    collected.catch(() => undefined);
    attachments.push(collected);
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    if (Buffer.isBuffer(source)) parser.end(source);
    else {
      source.on('error', reject);
      source.pipe(parser);
    }
  });
  const header = <Value>(name: string) => headers.get(name) as Value | undefined;
  const date = header<Date>('date');
  const found = text as MessageText | undefined;
  return {
    subject: header<string>('subject'),
    from: header<AddressObject>('from'),
    to: header<AddressObject | AddressObject[]>('to'),
    cc: header<AddressObject | AddressObject[]>('cc'),
    replyTo: header<AddressObject>('reply-to'),
    date: date instanceof Date && !Number.isNaN(date.getTime()) ? date : undefined,
    messageId: header<string>('message-id'),
    references: header<string | string[]>('references'),
    text: found?.text,
    html: typeof found?.html === 'string' ? found.html : undefined,
    attachments: await Promise.all(attachments),
  };
}

/**
 * Fetches one message by UID from a mailbox opened with EXAMINE and parses
 * it as it streams: its source with BODY.PEEK (so \Seen does not move),
 * whole with its flags when it is small, else in chunks, at most the bytes a
 * call may fetch. Undefined when no message has
 * that UID. Attachments are measured, and kept or streamed on only as
 * `handling` says.
 */
export async function fetchParsedMessage(
  context: MailReadingContext,
  mailbox: string,
  uid: number,
  handling: AttachmentHandling = {},
): Promise<ParsedMessage | undefined> {
  const cap = context.limits.maxCallBytes;
  const firstBytes = Math.min(cap, wholeInOneFetch);
  const fetched = await context.connection.withMailbox(mailbox, 'examine', async (client, opened) => {
    context.uidValidities.set(mailbox, opened.uidValidity);
    const message = await client.fetchOne(
      String(uid),
      { uid: true, flags: true, size: true, source: { start: 0, maxLength: firstBytes } },
      { uid: true },
    );
    if (message === false || message.uid !== uid) return undefined;
    const size = message.size ?? 0;
    if (size <= firstBytes && message.source !== undefined) {
      return { message, parsed: await parseStream(message.source, handling) };
    }
    // Larger: streamed in chunks, parsed while the connection is held, as the download fetches on it.
    const download = await client.download(String(uid), undefined, { uid: true, maxBytes: cap });
    if (download.content === undefined) return undefined;
    return { message, parsed: await parseStream(download.content, handling) };
  });
  if (fetched === undefined) return undefined;
  const { message, parsed } = fetched;
  const size = message.size ?? 0;
  return {
    parsed,
    flags: sessionIndependentFlags(message.flags),
    size,
    truncated: size > cap,
    addresses: (field) => addressTexts(parsed[field]),
  };
}
