import { countryOfTimeZone } from './alert-countries.ts';
import type { ResolvedLocation } from './resolve-location.ts';
import type { CachedValue } from './response-cache.ts';
import { fetchOpenMeteo } from './weather-result.ts';
import type { WeatherServerContext } from './weather-server-context.ts';

/**
 * The country a point given by coordinates is in, as far as the alert
 * sources need it: Open-Meteo has no reverse geocoding, but it names the
 * point's IANA time zone, and in the covered countries a zone belongs to one
 * country. The zone of a point does not change with the weather, so the
 * answer is kept as long as place searches are.
 */
export async function countryOfPoint(
  context: WeatherServerContext,
  location: ResolvedLocation,
  signal: AbortSignal,
): Promise<CachedValue<string | undefined>> {
  const zone = await fetchOpenMeteo(
    context,
    { base: context.forecastUrl, path: '/v1/forecast', kind: 'points', params: {} },
    location,
    signal,
  );
  return { ...zone, value: countryOfTimeZone(zone.value.timezone) };
}
