import type { MessageStructureObject } from 'imapflow';

/** A leaf of a message's MIME tree with what it takes to fetch and decode it. */
export interface TextPart {
  /** The IMAP section: `1`, `1.2` …; `1` for a message that is not multipart. */
  section: string;
  html: boolean;
  encoding: string;
  charset: string;
}

function isAttachment(node: MessageStructureObject): boolean {
  if (node.disposition?.toLowerCase() === 'attachment') return true;
  const named = node.dispositionParameters?.filename ?? node.parameters?.name;
  return named !== undefined && !node.type.startsWith('multipart/');
}

function leaves(node: MessageStructureObject, depth = 0): MessageStructureObject[] {
  // Deep nesting is an attack on the reader, not a message: stop looking.
  if (depth > 32) return [];
  if (node.childNodes === undefined || node.childNodes.length === 0) return [node];
  return node.childNodes.flatMap((child) => leaves(child, depth + 1));
}

/** Whether any part is an attachment (a disposition of `attachment`, or a file name on a non-text part). */
export function hasAttachments(structure: MessageStructureObject | undefined): boolean {
  return structure !== undefined && leaves(structure).some(isAttachment);
}

/** The part a reader sees first: the first plain text part, else the first HTML part. */
export function firstTextPart(structure: MessageStructureObject | undefined): TextPart | undefined {
  if (structure === undefined) return undefined;
  const candidates = leaves(structure).filter((node) => !isAttachment(node));
  const chosen =
    candidates.find((node) => node.type === 'text/plain') ?? candidates.find((node) => node.type === 'text/html');
  if (chosen === undefined) return undefined;
  return {
    section: chosen.part ?? '1',
    html: chosen.type === 'text/html',
    encoding: (chosen.encoding ?? '7bit').toLowerCase(),
    charset: chosen.parameters?.charset ?? 'utf-8',
  };
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let index = 0; index < joined.length; index++) {
    const character = joined[index] ?? '';
    const hex = joined.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else bytes.push(...Buffer.from(character, 'latin1'));
  }
  return Buffer.from(bytes);
}

function textDecoder(charset: string): InstanceType<typeof TextDecoder> {
  try {
    return new TextDecoder(charset, { fatal: false });
  } catch {
    // An unknown charset: UTF-8 shows ASCII right and the rest as replacement characters.
    return new TextDecoder('utf-8', { fatal: false });
  }
}

/** The start of a part as text, decoded from its transfer encoding and charset; a cut-off last byte sequence is dropped. */
export function decodePartStart(raw: Buffer, part: TextPart): string {
  let bytes = raw;
  if (part.encoding === 'base64') {
    const clean = raw.toString('latin1').replace(/[^A-Za-z0-9+/]/g, '');
    bytes = Buffer.from(clean.slice(0, clean.length - (clean.length % 4)), 'base64');
  } else if (part.encoding === 'quoted-printable') bytes = decodeQuotedPrintable(raw.toString('latin1'));
  return textDecoder(part.charset)
    .decode(bytes)
    .replace(/\uFFFD+$/, '');
}
