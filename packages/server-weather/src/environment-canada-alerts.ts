import { onFirstUse } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { AlertRow } from './alert-rows.ts';
import type { CachedValue } from './response-cache.ts';
import { fetchUpstream, type WeatherServerContext } from './weather-server-context.ts';
import { xmlAttribute, xmlList, xmlText } from './xml-feed.ts';

/** What Environment Canada's feed for a point says: the place it is for, and the alerts in effect there. */
export interface CanadaAlerts {
  /** The feed's place: "Ottawa (Kanata - Orléans)". */
  place: string | null;
  alerts: AlertRow[];
}

const sender = 'Environment and Climate Change Canada';

/** Colour-coded alerts (since 2025) say their level in the title; older titles say their kind. */
function severityOf(title: string): string {
  const upper = title.toUpperCase();
  if (upper.startsWith('RED')) return 'Extreme';
  if (upper.startsWith('ORANGE')) return 'Severe';
  if (upper.startsWith('YELLOW')) return 'Moderate';
  if (upper.includes('WARNING')) return 'Severe';
  if (upper.includes('WATCH')) return 'Moderate';
  if (upper.includes('STATEMENT') || upper.includes('ADVISORY')) return 'Minor';
  return 'Unknown';
}

/** The summary's HTML as plain text: breaks as new lines, tags dropped. */
function plainText(html: string | null): string | null {
  if (html === null) return null;
  const text = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();
  return text === '' ? null : text;
}

function readAlert(entry: Record<string, unknown>): AlertRow {
  const title = xmlText(entry.title) ?? '';
  // "YELLOW WARNING - SNOWFALL, Ottawa North - Kanata - Orléans": the alert, then where.
  const comma = title.indexOf(', ');
  return {
    event: comma === -1 ? title : title.slice(0, comma),
    headline: title,
    severity: severityOf(title),
    urgency: null,
    certainty: null,
    area: comma === -1 ? null : title.slice(comma + 2),
    onset: null,
    effective: xmlText(entry.published) ?? xmlText(entry.updated),
    expires: null,
    ends: null,
    sender,
    description: plainText(xmlText(entry.summary)),
    instruction: null,
    id: xmlText(entry.id),
  };
}

/** Entries of the warnings category that are an alert, not the "No watches or warnings in effect" line. */
function isAlert(entry: Record<string, unknown>): boolean {
  const warnings = xmlList(entry.category).some(
    (category) => xmlAttribute(category, 'term') === 'Warnings and Watches',
  );
  return warnings && !/^no watches or warnings/i.test(xmlText(entry.title) ?? '');
}

const feedAnswer = onFirstUse(
  (): z.ZodType<CanadaAlerts> =>
    z
      .custom<{ feed: Record<string, unknown> }>(
        (tree) =>
          typeof tree === 'object' &&
          tree !== null &&
          typeof (tree as { feed?: unknown }).feed === 'object' &&
          (tree as { feed?: unknown }).feed !== null,
        { message: 'expected an Atom feed' },
      )
      .transform(({ feed }) => ({
        place: xmlText(feed.title)?.replace(/ - Weather - Environment Canada$/, '') ?? null,
        alerts: xmlList(feed.entry).filter(isAlert).map(readAlert),
      })),
);

/** Three decimals, without trailing zeros: the form of the feed's own links. */
function feedCoordinate(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * The alerts in effect at a point in Canada, from Environment Canada's Atom
 * feed for the location (`/rss/weather/LAT_LON_e.xml`), which names the
 * warnings, watches and statements for the forecast region holding it.
 */
export function environmentCanadaAlerts(
  context: WeatherServerContext,
  latitude: number,
  longitude: number,
  signal?: AbortSignal,
): Promise<CachedValue<CanadaAlerts>> {
  return fetchUpstream(context, {
    upstream: 'Environment Canada',
    format: 'xml',
    base: context.environmentCanadaUrl,
    path: `/rss/weather/${feedCoordinate(latitude)}_${feedCoordinate(longitude)}_e.xml`,
    kind: 'alerts',
    schema: feedAnswer(),
    signal,
  });
}
