/**
 * Coordinates as the upstreams get them: rounded to 4 decimals (about 11 m),
 * written without trailing zeros. NWS answers a 301 for anything finer, and
 * the rounding is also what lets nearby calls share a cache entry.
 */
export function roundCoordinate(value: number): number {
  // Half away from zero, the same on both sides of the equator and meridian.
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10_000)) / 10_000;
  return rounded === 0 ? 0 : rounded;
}

/** `39.74561, -104.99` → `"39.7456"`, `"-104.99"`; `-105.0000` → `"-105"`. */
export function formatCoordinate(value: number): string {
  return String(roundCoordinate(value));
}

/** A point as the upstreams take it, for messages and keys: `39.7456,-104.9994`. */
export function formatPoint(latitude: number, longitude: number): string {
  return `${formatCoordinate(latitude)},${formatCoordinate(longitude)}`;
}
