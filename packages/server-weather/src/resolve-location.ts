import { ToolError } from '@toolshed/mcp-core';
import { roundCoordinate } from './coordinates.ts';
import { type Place, placeLabel, searchPlaces } from './geocoding.ts';
import type { LocationOutput } from './location-arguments.ts';
import { usStateNames } from './us-states.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

export interface ResolvedLocation {
  latitude: number;
  longitude: number;
  /** The chosen place, when resolved from a name. */
  place?: Place;
  output: LocationOutput;
  /** What the model should know about the choice, when there was one to make. */
  note?: string;
  /** One line for the answer's text when the place is the server's default, not the call's. */
  defaultLine?: string;
}

export interface LocationArguments {
  location?: string | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

const maxOtherMatches = 5;

/**
 * The point a call is about: its coordinates (rounded to 4 decimals), or the
 * best geocoding match for its place name. A name can carry qualifiers after
 * commas ("Springfield, IL", "Paris, France") which pick among the matches;
 * when other places share the chosen one's name, they are listed so the
 * model can say which it meant.
 */
export async function resolveLocation(
  context: WeatherServerContext,
  args: LocationArguments,
  signal?: AbortSignal,
): Promise<ResolvedLocation> {
  const hasCoordinates = args.latitude !== undefined || args.longitude !== undefined;
  if (args.location === undefined && !hasCoordinates && context.defaultLocation !== undefined) {
    return resolveDefault(context, context.defaultLocation, signal);
  }
  return resolveGiven(context, args, signal);
}

async function resolveGiven(
  context: WeatherServerContext,
  args: LocationArguments,
  signal?: AbortSignal,
): Promise<ResolvedLocation> {
  const hasCoordinates = args.latitude !== undefined || args.longitude !== undefined;
  if (args.location !== undefined && hasCoordinates) {
    throw new ToolError('Give either `location` or `latitude` and `longitude`, not both.');
  }
  if (args.location === undefined) {
    if (args.latitude === undefined || args.longitude === undefined) {
      throw new ToolError(
        hasCoordinates
          ? 'Give both `latitude` and `longitude`.'
          : 'Say where: a place name in `location`, or `latitude` and `longitude` (this server has no default location).',
      );
    }
    const latitude = roundCoordinate(args.latitude);
    const longitude = roundCoordinate(args.longitude);
    return {
      latitude,
      longitude,
      output: { name: null, latitude, longitude, timezone: null, resolved_from: 'coordinates' },
    };
  }
  return resolveName(context, args.location, signal);
}

/**
 * The server's default location, for a call that names no place: resolved as
 * if the call had given it, and marked so that the answer says whose choice
 * the place was.
 */
async function resolveDefault(
  context: WeatherServerContext,
  setting: LocationArguments,
  signal?: AbortSignal,
): Promise<ResolvedLocation> {
  let resolved: ResolvedLocation;
  try {
    resolved = await resolveGiven(context, setting, signal);
  } catch (error) {
    if (!(error instanceof ToolError) || signal?.aborted) throw error;
    throw new ToolError(
      `No place was given, and the server's default location could not be used: ${error.message} Pass \`location\` or \`latitude\` and \`longitude\`.`,
    );
  }
  const where = resolved.output.name ?? `${resolved.latitude}, ${resolved.longitude}`;
  return {
    ...resolved,
    output: { ...resolved.output, from_default: true },
    defaultLine: `No place was given: this is for the server's default location, ${where}.`,
  };
}

async function resolveName(
  context: WeatherServerContext,
  query: string,
  signal?: AbortSignal,
): Promise<ResolvedLocation> {
  const [name = '', ...qualifiers] = query.split(',').map((part) => part.trim());
  const wanted = qualifiers.filter((qualifier) => qualifier !== '').map(normalise);
  if (name.length < 2) throw new ToolError(`"${query}" is not a place name; give at least two letters.`);
  const { value: places } = await searchPlaces(
    context,
    { name, count: wanted.length > 0 ? 30 : 10, language: 'en' },
    signal,
  );
  const candidates = wanted.length === 0 ? places : places.filter((place) => matchesAll(place, wanted));
  const best = candidates[0];
  if (best === undefined) {
    const found =
      places.length === 0
        ? ''
        : ` Places named "${name}" that were found: ${places.slice(0, maxOtherMatches).map(placeLabel).join('; ')}.`;
    throw new ToolError(
      `No place matching "${query}" was found.${found} Try search_locations with another spelling or a nearby larger town, or pass latitude and longitude.`,
    );
  }
  const bestName = normalise(best.name);
  const others = candidates
    .slice(1)
    .filter((place) => normalise(place.name) === bestName)
    .slice(0, maxOtherMatches);
  const latitude = roundCoordinate(best.latitude);
  const longitude = roundCoordinate(best.longitude);
  const label = placeLabel(best);
  const output: LocationOutput = {
    name: label,
    latitude,
    longitude,
    timezone: best.timezone,
    resolved_from: 'name',
    query,
  };
  if (others.length === 0) return { latitude, longitude, place: best, output };
  output.other_matches = others.map((place) => ({
    name: placeLabel(place),
    latitude: roundCoordinate(place.latitude),
    longitude: roundCoordinate(place.longitude),
  }));
  return {
    latitude,
    longitude,
    place: best,
    output,
    note:
      `"${query}" matches several places; this is for ${label} (the best match). ` +
      `Others: ${output.other_matches.map((other) => other.name).join('; ')}. ` +
      'To use another, add its region or country after a comma, or pass its latitude and longitude.',
  };
}

function matchesAll(place: Place, qualifiers: readonly string[]): boolean {
  const fields = [place.admin1, place.admin2, place.admin3, place.country, place.country_code]
    .filter((field): field is string => field !== null)
    .map(normalise);
  return qualifiers.every((qualifier) => {
    const state = place.country_code === 'US' ? usStateNames.get(qualifier) : undefined;
    return fields.some((field) => field === qualifier || field === state || field.startsWith(`${qualifier} `));
  });
}

/** Case, accents and extra spaces do not matter when comparing names. */
function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
