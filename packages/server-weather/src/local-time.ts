/**
 * Times in a location's own time zone, as ISO 8601 with the offset that was in
 * force at that instant (so a forecast across a daylight-saving change is
 * right on both sides of it).
 */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      // An unknown zone name: the caller's fixed offset is used instead.
      formatter = null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
}

/** Offsets change only at transitions, which fall on quarter hours: one lookup per zone and quarter hour. */
const quarterHourMs = 900_000;
const offsets = new Map<string, number>();

function offsetMinutesAt(instantMs: number, timeZone: string, formatter: Intl.DateTimeFormat): number {
  const quarter = Math.floor(instantMs / quarterHourMs);
  const key = `${timeZone} ${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const at = quarter * quarterHourMs;
    const fields: Record<string, number> = {};
    for (const part of formatter.formatToParts(at)) {
      if (part.type !== 'literal') fields[part.type] = Number(part.value);
    }
    const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = fields;
    offset = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - at) / 60_000);
    // Bounded: a long-running server sees new quarter hours for ever.
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function localParts(unixSeconds: number, timeZone: string, fallbackOffsetSeconds: number): LocalParts {
  const formatter = formatterFor(timeZone);
  const offsetMinutes =
    formatter === null
      ? Math.round(fallbackOffsetSeconds / 60)
      : offsetMinutesAt(unixSeconds * 1000, timeZone, formatter);
  const shifted = new Date(unixSeconds * 1000 + offsetMinutes * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    offsetMinutes,
  };
}

const two = (value: number): string => String(value).padStart(2, '0');

/** `2026-11-22T14:15:00+01:00` */
export function localDateTime(unixSeconds: number, timeZone: string, fallbackOffsetSeconds: number): string {
  const parts = localParts(unixSeconds, timeZone, fallbackOffsetSeconds);
  const sign = parts.offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(parts.offsetMinutes);
  return (
    `${parts.year}-${two(parts.month)}-${two(parts.day)}T${two(parts.hour)}:${two(parts.minute)}:${two(parts.second)}` +
    `${sign}${two(Math.floor(offset / 60))}:${two(offset % 60)}`
  );
}

/** `2026-11-22`: the local calendar date of a day that starts at `unixSeconds`. */
export function localDate(unixSeconds: number, timeZone: string, fallbackOffsetSeconds: number): string {
  const parts = localParts(unixSeconds, timeZone, fallbackOffsetSeconds);
  return `${parts.year}-${two(parts.month)}-${two(parts.day)}`;
}
