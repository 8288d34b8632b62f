import { ToolError } from '@toolshed/mcp-core';
import type { Sharp, WriteableMetadata } from 'sharp';
import * as z from 'zod';

// Printable text only: no control or invisible format characters, which could hide what a reader of the file sees.
const printable = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

function text(max: number) {
  return z.string().max(max).regex(printable, 'must be printable text on one line').optional();
}

export function metadataFields(): {
  date: z.ZodOptional<z.ZodString>;
  caption: z.ZodOptional<z.ZodString>;
  keywords: z.ZodOptional<z.ZodArray<z.ZodString>>;
  copyright: z.ZodOptional<z.ZodString>;
  author: z.ZodOptional<z.ZodString>;
} {
  return {
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})?$/, 'must be like 2026-05-17T14:30:00+02:00')
      .optional(),
    caption: text(2000),
    keywords: z
      .array(z.string().min(1).max(100).regex(printable, 'must be printable text on one line'))
      .max(50)
      .optional(),
    copyright: text(500),
    author: text(200),
  };
}

export type MetadataArguments = {
  date?: string | undefined;
  caption?: string | undefined;
  keywords?: string[] | undefined;
  copyright?: string | undefined;
  author?: string | undefined;
};

function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** EXIF ASCII holds 7-bit text: other characters become `?` there, and XMP keeps them as written. */
function ascii(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?');
}

/** The EXIF IFD0/IFD2 tags for the fields given; an empty string clears a field. */
function exifOf(fields: MetadataArguments): WriteableMetadata['exif'] {
  const ifd0: Record<string, string> = {};
  const ifd2: Record<string, string> = {};
  if (fields.caption) ifd0.ImageDescription = ascii(fields.caption);
  if (fields.author) ifd0.Artist = ascii(fields.author);
  if (fields.copyright) ifd0.Copyright = ascii(fields.copyright);
  if (fields.date) {
    const [, day = '', time = '', zone] = /^(\S{10})T(\S{8})(.*)$/.exec(fields.date) ?? [];
    const stamp = `${day.replace(/-/g, ':')} ${time}`;
    ifd0.DateTime = stamp;
    ifd2.DateTimeOriginal = stamp;
    ifd2.DateTimeDigitized = stamp;
    if (zone) ifd2.OffsetTimeOriginal = zone === 'Z' ? '+00:00' : zone;
  }
  return { IFD0: ifd0, IFD2: ifd2 };
}

/** An XMP packet with the Dublin Core and XMP fields given, every value escaped as XML text. */
function xmpOf(fields: MetadataArguments): string | undefined {
  const alt = (value: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(value)}</rdf:li></rdf:Alt>`;
  const parts: string[] = [];
  if (fields.caption) parts.push(`<dc:description>${alt(fields.caption)}</dc:description>`);
  if (fields.author)
    parts.push(`<dc:creator><rdf:Seq><rdf:li>${xmlEscape(fields.author)}</rdf:li></rdf:Seq></dc:creator>`);
  if (fields.copyright) parts.push(`<dc:rights>${alt(fields.copyright)}</dc:rights>`);
  if (fields.keywords?.length) {
    const items = fields.keywords.map((keyword) => `<rdf:li>${xmlEscape(keyword)}</rdf:li>`).join('');
    parts.push(`<dc:subject><rdf:Bag>${items}</rdf:Bag></dc:subject>`);
  }
  if (fields.date) parts.push(`<xmp:CreateDate>${xmlEscape(fields.date)}</xmp:CreateDate>`);
  if (parts.length === 0) return undefined;
  return (
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">' +
    `${parts.join('')}</rdf:Description></rdf:RDF></x:xmpmeta>`
  );
}

/**
 * Fields a call asks to write or, with "", to leave out. Leaving one out of
 * kept metadata is refused: sharp can set a field of the input's EXIF but
 * not delete one, and a result that still held it would say otherwise.
 */
export function checkMetadata(fields: MetadataArguments, keepInput: boolean): MetadataArguments {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (entries.length === 0)
    throw new ToolError('metadata needs at least one of date, caption, keywords, copyright, author.');
  const cleared = entries.filter(([, value]) => value === '').map(([key]) => key);
  if (keepInput && cleared.length > 0) {
    throw new ToolError(
      `metadata ${cleared.join(', ')} "" removes a field, which works only without keep_metadata: the result then holds only the fields you give.`,
    );
  }
  return fields;
}

/**
 * Writes the fields into the result. Without keep_metadata the result holds
 * only these (the input's EXIF, XMP, ICC and any GPS location are gone);
 * with it, the input's EXIF is kept and these fields set over it, and the
 * XMP is replaced by one with these fields. No location is ever written.
 */
export function withMetadata(image: Sharp, fields: MetadataArguments, keepInput: boolean): Sharp {
  const exif = exifOf(fields);
  const xmp = xmpOf(fields);
  let written = keepInput ? image.keepMetadata().withExifMerge(exif ?? {}) : image.withExif(exif ?? {});
  if (xmp !== undefined) written = written.withXmp(xmp);
  return written;
}
