import readExif from 'exif-reader';

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

// EXIF in a JPEG cannot be larger than one 64 KiB segment; other containers could carry more, which no camera
// writes. Reading only that much keeps the parse's time and memory bounded whatever the file says.
const maxExifBytes = 65_536;
const maxText = 256;

/** Printable text only, and short: these strings come from whoever made the file. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value
    .slice(0, maxText)
    .replace(/\0.*$/s, '')
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '')
    .trim();
  return cleaned === '' ? undefined : cleaned;
}

function finite(value: unknown, digits?: number): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return digits === undefined ? value : Number(value.toFixed(digits));
}

/** EXIF times have no zone: `2026-01-02T03:04:05`, with the offset when the camera recorded one. */
function takenAt(value: unknown, offset: unknown): string | undefined {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
  const local = value.toISOString().slice(0, 19);
  const zone = text(offset);
  return zone !== undefined && /^[+-]\d{2}:\d{2}$/.test(zone) ? `${local}${zone}` : local;
}

/** 1/250 for short exposures, as cameras show them; seconds otherwise. */
function exposure(seconds: number | undefined): string | undefined {
  if (seconds === undefined || seconds <= 0) return undefined;
  return seconds < 1 ? `1/${Math.round(1 / seconds)}` : String(seconds);
}

/**
 * Reads the few EXIF fields that describe a photo — camera, lens, when,
 * exposure — and whether a GPS block (or XMP GPS data) is present, from the
 * buffers sharp's metadata() returns, with exif-reader. Malformed data yields
 * less, never an error.
 */
export function summariseExif(exif: Buffer | undefined, xmp: Buffer | undefined): ExifSummary | undefined {
  const xmpGps = xmp !== undefined && /GPSLatitude|GPSLongitude/.test(xmp.toString('latin1'));
  let tags: ReturnType<typeof readExif> | undefined;
  try {
    tags = exif === undefined ? undefined : readExif(exif.subarray(0, maxExifBytes));
  } catch {
    tags = undefined;
  }
  if (tags === undefined) return xmpGps ? { has_gps: true } : undefined;
  const { Image: image = {}, Photo: photo = {}, GPSInfo: gps } = tags;
  const summary: ExifSummary = {
    has_gps: xmpGps || gps?.GPSLatitude !== undefined || gps?.GPSLongitude !== undefined,
  };
  const fields: [keyof ExifSummary, unknown][] = [
    ['make', text(image.Make)],
    ['model', text(image.Model)],
    ['software', text(image.Software)],
    ['lens', text(photo.LensModel)],
    ['taken_at', takenAt(photo.DateTimeOriginal, photo.OffsetTimeOriginal) ?? takenAt(image.DateTime, undefined)],
    ['exposure_time', exposure(finite(photo.ExposureTime))],
    ['f_number', finite(photo.FNumber, 1)],
    ['iso', finite(Array.isArray(photo.ISOSpeedRatings) ? photo.ISOSpeedRatings[0] : photo.ISOSpeedRatings)],
    ['focal_length_mm', finite(photo.FocalLength, 1)],
  ];
  for (const [key, value] of fields) {
    if (value !== undefined) (summary as Record<string, unknown>)[key] = value;
  }
  return summary;
}
