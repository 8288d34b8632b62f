import type { LocationArguments } from './resolve-location.ts';

/** `LATITUDE,LONGITUDE` in decimal degrees: `52.52,13.405`, `-33.87, 151.21`. */
const coordinatePair = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/**
 * The `--default-location` setting as the arguments a call would have given:
 * coordinates when it is a `LATITUDE,LONGITUDE` pair, a place name otherwise
 * (resolved like a call's `location`, qualifiers after commas and all).
 * Undefined for a pair out of range, which the options schema refuses.
 */
export function defaultLocationArguments(setting: string): LocationArguments | undefined {
  const pair = coordinatePair.exec(setting);
  if (pair === null) return { location: setting.trim() };
  const latitude = Number(pair[1]);
  const longitude = Number(pair[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
}
