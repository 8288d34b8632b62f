import { onFirstUse } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { AlertRow } from './alert-rows.ts';
import type { CachedValue } from './response-cache.ts';
import { fetchUpstream, type WeatherServerContext } from './weather-server-context.ts';
import { xmlList, xmlText } from './xml-feed.ts';

/** An entry of a MeteoAlarm country feed: the alert, and what places it. */
export interface MeteoalarmEntry {
  row: AlertRow;
  status: string | null;
  messageType: string | null;
  /** The warning's polygons as [latitude, longitude] rings, when the service sent any (most name a region only). */
  polygons: [number, number][][];
}

/** A CAP polygon, `lat,lon lat,lon …`, as a ring; empty when it is not one. */
function capPolygon(text: string): [number, number][] {
  const ring = text
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(',').map(Number))
    .filter((pair): pair is [number, number] => pair.length === 2 && pair.every(Number.isFinite));
  return ring.length >= 3 ? ring : [];
}

function readEntry(entry: Record<string, unknown>): MeteoalarmEntry {
  const polygons = (Array.isArray(entry.polygon) ? entry.polygon : [])
    .map((polygon) => capPolygon(xmlText(polygon) ?? ''))
    .filter((ring) => ring.length > 0);
  return {
    row: {
      event: xmlText(entry.event),
      headline: xmlText(entry.title),
      severity: xmlText(entry.severity),
      urgency: xmlText(entry.urgency),
      certainty: xmlText(entry.certainty),
      area: xmlText(entry.areaDesc),
      onset: xmlText(entry.onset),
      effective: xmlText(entry.effective),
      expires: xmlText(entry.expires),
      ends: null,
      sender: null,
      // The legacy feed carries no description; its CAP file does, at one more request per alert.
      description: xmlText(entry.summary) ?? xmlText(entry.content),
      instruction: null,
      id: xmlText(entry.identifier) ?? xmlText(entry.id),
    },
    status: xmlText(entry.status),
    messageType: xmlText(entry.message_type),
    polygons,
  };
}

const feedAnswer = onFirstUse(
  (): z.ZodType<MeteoalarmEntry[]> =>
    z
      .custom<{ feed: Record<string, unknown> }>(
        (tree) =>
          typeof tree === 'object' &&
          tree !== null &&
          typeof (tree as { feed?: unknown }).feed === 'object' &&
          (tree as { feed?: unknown }).feed !== null,
        { message: 'expected an Atom feed' },
      )
      .transform((tree) => xmlList(tree.feed.entry).map(readEntry)),
);

/** The warnings of one MeteoAlarm country feed, as the service last published them. */
export function meteoalarmFeed(
  context: WeatherServerContext,
  slug: string,
  signal?: AbortSignal,
): Promise<CachedValue<MeteoalarmEntry[]>> {
  return fetchUpstream(context, {
    upstream: 'MeteoAlarm',
    format: 'xml',
    base: context.meteoalarmUrl,
    path: `/feeds/meteoalarm-legacy-atom-${slug}`,
    kind: 'alerts',
    schema: feedAnswer(),
    signal,
  });
}

/** Whether a ring of [latitude, longitude] holds the point (even-odd rule). */
function ringHolds(ring: readonly [number, number][], latitude: number, longitude: number): boolean {
  let inside = false;
  for (let index = 0, previous = ring.length - 1; index < ring.length; previous = index++) {
    const [latA, lonA] = ring[index] as [number, number];
    const [latB, lonB] = ring[previous] as [number, number];
    if (latA > latitude !== latB > latitude && longitude < ((lonB - lonA) * (latitude - latA)) / (latB - latA) + lonA) {
      inside = !inside;
    }
  }
  return inside;
}

/** Words that name a kind of area rather than a place, in the languages the feeds use. */
const kindWords = new Set(
  'kreis landkreis stadt stadtkreis region regione province provincia provincie departement department district bezirk county city land canton kanton comune gemeinde municipality north south east west nord sud ost north-east upper lower central coast coastal mountains area zone'.split(
    ' ',
  ),
);

/** The words of a name that say which place it is: accents, case and kinds of area aside. */
function placeWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word.length >= 4 && !kindWords.has(word));
}

/**
 * Whether an alert is for the place: its polygon holds the point, or its
 * area's name shares a word with the place's own names (town, district,
 * region). MeteoAlarm names most warnings' areas only (EMMA regions, without
 * shapes), so names are what there is to go on.
 */
export function alertIsForPlace(
  entry: MeteoalarmEntry,
  place: { latitude: number; longitude: number; names: readonly string[] },
): boolean {
  if (entry.polygons.some((ring) => ringHolds(ring, place.latitude, place.longitude))) return true;
  const wanted = new Set(place.names.flatMap(placeWords));
  return placeWords(entry.row.area ?? '').some((word) => wanted.has(word));
}

/** Whether an entry is a warning in force: actual (not a test or exercise), not cancelled, not expired. */
export function entryInForce(entry: MeteoalarmEntry, now: number): boolean {
  if (entry.status !== null && entry.status !== 'Actual') return false;
  if (entry.messageType === 'Cancel') return false;
  const expires = entry.row.expires === null ? Number.NaN : Date.parse(entry.row.expires);
  return Number.isNaN(expires) || expires > now;
}
