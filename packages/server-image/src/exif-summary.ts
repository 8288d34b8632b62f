/** The EXIF fields worth telling a model, and whether the image says where it was taken. */
export type ExifSummary = {
  make?: string;
  model?: string;
  software?: string;
  lens?: string;
  taken_at?: string;
  exposure_time?: string;
  f_number?: number;
  iso?: number;
  focal_length_mm?: number;
  has_gps: boolean;
};

const exifHeader = Buffer.from('Exif\0\0', 'latin1');
// Every value comes from the file: entries and string lengths are capped and every offset is bounds-checked.
const maxEntries = 512;
const maxText = 256;

const typeSizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

interface Entry {
  type: number;
  count: number;
  /** Where the value starts: inside the entry when it fits in 4 bytes. */
  offset: number;
}

class TiffReader {
  readonly #data: Buffer;
  readonly #little: boolean;

  constructor(data: Buffer, little: boolean) {
    this.#data = data;
    this.#little = little;
  }

  u16(offset: number): number | undefined {
    if (offset < 0 || offset + 2 > this.#data.length) return undefined;
    return this.#little ? this.#data.readUInt16LE(offset) : this.#data.readUInt16BE(offset);
  }

  u32(offset: number): number | undefined {
    if (offset < 0 || offset + 4 > this.#data.length) return undefined;
    return this.#little ? this.#data.readUInt32LE(offset) : this.#data.readUInt32BE(offset);
  }

  entries(ifdOffset: number): Map<number, Entry> {
    const entries = new Map<number, Entry>();
    const count = this.u16(ifdOffset);
    if (count === undefined) return entries;
    for (let index = 0; index < Math.min(count, maxEntries); index++) {
      const at = ifdOffset + 2 + index * 12;
      const tag = this.u16(at);
      const type = this.u16(at + 2);
      const valueCount = this.u32(at + 4);
      if (tag === undefined || type === undefined || valueCount === undefined) break;
      const size = (typeSizes[type] ?? 0) * valueCount;
      const offset = size <= 4 ? at + 8 : this.u32(at + 8);
      if (offset !== undefined && size > 0 && offset + size <= this.#data.length) {
        entries.set(tag, { type, count: valueCount, offset });
      }
    }
    return entries;
  }

  text(entry: Entry | undefined): string | undefined {
    if (entry?.type !== 2) return undefined;
    const raw = this.#data.subarray(entry.offset, entry.offset + Math.min(entry.count, maxText)).toString('latin1');
    // Keep printable text only: these strings come from whoever made the file.
    const text = raw
      .replace(/\0.*$/s, '')
      .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '')
      .trim();
    return text === '' ? undefined : text;
  }

  number(entry: Entry | undefined): number | undefined {
    if (entry === undefined) return undefined;
    if (entry.type === 3) return this.u16(entry.offset);
    if (entry.type === 4) return this.u32(entry.offset);
    if (entry.type === 5) {
      const numerator = this.u32(entry.offset);
      const denominator = this.u32(entry.offset + 4);
      if (numerator === undefined || !denominator) return undefined;
      return numerator / denominator;
    }
    return undefined;
  }

  fraction(entry: Entry | undefined): string | undefined {
    if (entry?.type !== 5) return undefined;
    const numerator = this.u32(entry.offset);
    const denominator = this.u32(entry.offset + 4);
    if (numerator === undefined || !denominator) return undefined;
    return numerator === 1 || denominator === 1 ? `${numerator}/${denominator}` : String(numerator / denominator);
  }
}

function round(value: number | undefined, digits: number): number | undefined {
  return value === undefined ? undefined : Number(value.toFixed(digits));
}

/**
 * Reads the few EXIF fields that describe a photo — camera, lens, when,
 * exposure — and whether a GPS block (or XMP GPS data) is present, from the
 * buffers sharp's metadata() returns. Malformed data yields less, never an error.
 */
export function summariseExif(exif: Buffer | undefined, xmp: Buffer | undefined): ExifSummary | undefined {
  const xmpGps = xmp !== undefined && /GPSLatitude|GPSLongitude/.test(xmp.toString('latin1'));
  if (exif === undefined || exif.length < 8) return xmpGps ? { has_gps: true } : undefined;
  const tiff = exif.subarray(0, 6).equals(exifHeader) ? exif.subarray(6) : exif;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return xmpGps ? { has_gps: true } : undefined;
  const reader = new TiffReader(tiff, order === 'II');
  const ifd0 = reader.entries(reader.u32(4) ?? -1);
  const exifPointer = reader.number(ifd0.get(0x8769));
  const gpsPointer = reader.number(ifd0.get(0x8825));
  const details = exifPointer === undefined ? new Map<number, Entry>() : reader.entries(exifPointer);
  const gps = gpsPointer === undefined ? new Map<number, Entry>() : reader.entries(gpsPointer);
  const summary: ExifSummary = { has_gps: xmpGps || gps.has(0x0002) || gps.has(0x0004) };
  const fields: [keyof ExifSummary, unknown][] = [
    ['make', reader.text(ifd0.get(0x010f))],
    ['model', reader.text(ifd0.get(0x0110))],
    ['software', reader.text(ifd0.get(0x0131))],
    ['lens', reader.text(details.get(0xa434))],
    ['taken_at', reader.text(details.get(0x9003)) ?? reader.text(ifd0.get(0x0132))],
    ['exposure_time', reader.fraction(details.get(0x829a))],
    ['f_number', round(reader.number(details.get(0x829d)), 1)],
    ['iso', reader.number(details.get(0x8827))],
    ['focal_length_mm', round(reader.number(details.get(0x920a)), 1)],
  ];
  for (const [key, value] of fields) {
    if (value !== undefined) (summary as Record<string, unknown>)[key] = value;
  }
  return summary;
}
