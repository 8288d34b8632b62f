import { type AlertSource, alertSourceFor, meteoalarmFeeds } from './alert-countries.ts';
import { type AlertRow, orderedAlertRows } from './alert-rows.ts';
import { formatPoint } from './coordinates.ts';
import { environmentCanadaAlerts } from './environment-canada-alerts.ts';
import { alertIsForPlace, entryInForce, meteoalarmFeed } from './meteoalarm-alerts.ts';
import { activeAlerts, type NwsAlert, type PointCoverage, pointCoverage } from './nws-alerts.ts';
import { countryOfPoint } from './place-country.ts';
import type { ResolvedLocation } from './resolve-location.ts';
import type { CachedValue } from './response-cache.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

/** What the alerts tool answers, before the location and freshness every weather result has. */
export interface AlertsAnswer {
  data: Record<string, unknown> & { alerts: AlertRow[]; summary: string };
  cached: CachedValue<unknown>;
  timezone: string | null;
}

/** A country's feed can list hundreds of warnings; a call returns the most severe. */
const maxAlertRows = 20;

/** Two answers' freshness as one: stale when either is, with the first failure found. */
function together(first: CachedValue<unknown>, second: CachedValue<unknown>): CachedValue<unknown> {
  return { ...second, stale: first.stale || second.stale, error: second.error ?? first.error };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function highest(rows: readonly AlertRow[]): string {
  return rows[0]?.severity ?? 'Unknown';
}

/**
 * The alerts at a resolved place, from the source that covers it: the
 * country of a named place is known from geocoding; a point given by
 * coordinates is asked of NWS first (it answers from its own map), then
 * placed in a country by its time zone.
 */
export async function alertsAt(
  context: WeatherServerContext,
  location: ResolvedLocation,
  signal: AbortSignal,
): Promise<AlertsAnswer> {
  const place = location.output.name ?? formatPoint(location.latitude, location.longitude).replace(',', ', ');
  const countryCode = location.place?.country_code ?? null;
  let source: AlertSource | undefined;
  let looked: CachedValue<unknown> | undefined;
  let country = countryCode;
  if (countryCode === null || alertSourceFor(countryCode) === 'nws') {
    const coverage = await pointCoverage(context, location.latitude, location.longitude, signal);
    if (coverage.value.covered) return nwsAnswer(context, location, place, coverage.value, coverage, signal);
    looked = coverage;
    if (countryCode === null) {
      const zone = await countryOfPoint(context, location, signal);
      looked = together(coverage, zone);
      country = zone.value ?? null;
    }
    // NWS has said the point is outside its area, whatever the zone says.
    source = alertSourceFor(country) === 'nws' ? undefined : alertSourceFor(country);
  } else {
    source = alertSourceFor(countryCode);
  }
  const named = { place, country: location.place?.country ?? country };
  if (source === 'meteoalarm' && country !== null) {
    return meteoalarmAnswer(context, location, named, country.toUpperCase(), looked, signal);
  }
  if (source === 'environment_canada') return canadaAnswer(context, location, place, looked, signal);
  return noCoverage(place, looked);
}

function noCoverage(place: string, looked: CachedValue<unknown> | undefined): AlertsAnswer {
  return {
    data: {
      coverage: 'none',
      count: 0,
      alerts: [],
      summary:
        'No alert coverage here: this server reads alerts from the US National Weather Service (the United States and its territories), ' +
        `MeteoAlarm (38 European countries) and Environment Canada, and ${place} is outside them. ` +
        'This does not mean there are no alerts; check the national weather service for that country.',
    },
    cached: looked ?? { value: undefined, fetchedAt: Date.now(), cacheHit: true, stale: false },
    timezone: null,
  };
}

async function nwsAnswer(
  context: WeatherServerContext,
  location: ResolvedLocation,
  place: string,
  area: Extract<PointCoverage, { covered: true }>,
  coverage: CachedValue<unknown>,
  signal: AbortSignal,
): Promise<AlertsAnswer> {
  const cached = await activeAlerts(context, location.latitude, location.longitude, signal);
  const alerts = orderedAlertRows(
    cached.value.alerts.filter((alert) => alert.status === null || alert.status === 'Actual').map(nwsRow),
  );
  const nearest = [area.city, area.state].filter((part) => part !== null).join(', ');
  const where = area.city === null ? place : `${place} (near ${nearest})`;
  return {
    data: {
      coverage: 'nws',
      area: {
        city: area.city,
        state: area.state,
        office: area.office,
        forecast_zone: area.forecastZone,
        county_zone: area.county,
      },
      count: alerts.length,
      alerts,
      summary:
        alerts.length === 0
          ? `No active NWS alerts for ${where}.`
          : `${plural(alerts.length, 'active NWS alert')} for ${where}, the highest severity ${highest(alerts)}.`,
    },
    cached: together(coverage, cached),
    timezone: area.timeZone,
  };
}

function nwsRow(alert: NwsAlert): AlertRow {
  return {
    event: alert.event,
    headline: alert.headline,
    severity: alert.severity,
    urgency: alert.urgency,
    certainty: alert.certainty,
    area: alert.areaDesc,
    onset: alert.onset,
    effective: alert.effective,
    expires: alert.expires,
    ends: alert.ends,
    sender: alert.senderName,
    description: alert.description,
    instruction: alert.instruction,
    id: alert.id,
  };
}

async function meteoalarmAnswer(
  context: WeatherServerContext,
  location: ResolvedLocation,
  named: { place: string; country: string | null },
  countryCode: string,
  looked: CachedValue<unknown> | undefined,
  signal: AbortSignal,
): Promise<AlertsAnswer> {
  const slug = meteoalarmFeeds.get(countryCode) ?? '';
  const cached = await meteoalarmFeed(context, slug, signal);
  const now = Date.now();
  const inForce = cached.value.filter((entry) => entryInForce(entry, now));
  const chosen = location.place;
  const names =
    chosen === undefined
      ? []
      : [chosen.name, chosen.admin1, chosen.admin2, chosen.admin3].filter((name): name is string => name !== null);
  const scope = names.length === 0 ? 'country' : 'place';
  const point = { latitude: location.latitude, longitude: location.longitude, names };
  const matching = scope === 'country' ? inForce : inForce.filter((entry) => alertIsForPlace(entry, point));
  const ordered = orderedAlertRows(matching.map((entry) => entry.row));
  const alerts = ordered.slice(0, maxAlertRows);
  const others = inForce.length - matching.length;
  const country = named.country ?? countryCode;
  let summary: string;
  if (scope === 'country') {
    summary =
      ordered.length === 0
        ? `No MeteoAlarm warnings in force in ${country}.`
        : `${plural(ordered.length, 'MeteoAlarm warning')} in force in ${country}, the highest severity ${highest(ordered)}; ` +
          'MeteoAlarm names warning regions, which coordinates alone cannot be matched to, so these are the whole country’s: give a place name to narrow them.';
  } else {
    const elsewhere =
      others === 0 ? '' : ` ${others} more ${others === 1 ? 'is' : 'are'} in force elsewhere in ${country}.`;
    summary =
      ordered.length === 0
        ? `No MeteoAlarm warnings in force name the area of ${named.place}.${elsewhere}`
        : `${plural(ordered.length, 'MeteoAlarm warning')} in force for the area of ${named.place}, the highest severity ${highest(ordered)}.${elsewhere}`;
  }
  return {
    data: {
      coverage: 'meteoalarm',
      country: countryCode,
      scope,
      count: alerts.length,
      alerts,
      ...(ordered.length > alerts.length ? { truncated: true } : {}),
      ...(scope === 'place' ? { other_alerts_in_country: others } : {}),
      summary,
    },
    cached: looked === undefined ? cached : together(looked, cached),
    timezone: location.place?.timezone ?? null,
  };
}

async function canadaAnswer(
  context: WeatherServerContext,
  location: ResolvedLocation,
  place: string,
  looked: CachedValue<unknown> | undefined,
  signal: AbortSignal,
): Promise<AlertsAnswer> {
  const cached = await environmentCanadaAlerts(context, location.latitude, location.longitude, signal);
  const alerts = orderedAlertRows(cached.value.alerts).slice(0, maxAlertRows);
  return {
    data: {
      coverage: 'environment_canada',
      count: alerts.length,
      alerts,
      summary:
        alerts.length === 0
          ? `No Environment Canada alerts in effect for ${place}.`
          : `${plural(alerts.length, 'Environment Canada alert')} in effect for ${place}, the highest severity ${highest(alerts)}.`,
    },
    cached: looked === undefined ? cached : together(looked, cached),
    timezone: location.place?.timezone ?? null,
  };
}
