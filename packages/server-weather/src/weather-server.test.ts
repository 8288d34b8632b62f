import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherHarness, textOf, type WeatherHarness } from './__fixtures__/weather-harness.ts';

let harness: WeatherHarness;

beforeAll(async () => {
  harness = await startWeatherHarness();
});

afterAll(async () => {
  expect(harness.specViolations()).toEqual([]);
  await harness.close();
});

const call = (name: string, args: Record<string, unknown>) => harness.call(name, args);

describe('tools/list', () => {
  it('lists the five tools, each read-only, open-world, with an output schema', async () => {
    const { tools } = await harness.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'get_air_quality',
      'get_current_weather',
      'get_forecast',
      'get_weather_alerts',
      'search_locations',
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true, destructiveHint: false });
      expect(tool.inputSchema).not.toHaveProperty('oneOf');
    }
  });
});

describe('search_locations', () => {
  it('returns candidates best first with regions, coordinates rounded to 4 decimals, time zone and population', async () => {
    const result = await call('search_locations', { name: 'Berlin', count: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      query: 'Berlin',
      count: 3,
      freshness: { from_cache: false, stale: false },
    });
    const locations = result.structuredContent?.locations as Record<string, unknown>[];
    expect(locations[0]).toEqual({
      name: 'Berlin',
      admin1: 'Land Berlin',
      admin2: null,
      country: 'Germany',
      country_code: 'DE',
      latitude: 52.5244,
      longitude: 13.4105,
      timezone: 'Europe/Berlin',
      elevation_m: 74,
      population: 3426354,
      feature_code: 'PPLC',
    });
    expect(locations.map((location) => location.admin1)).toEqual(['Land Berlin', 'New Hampshire', 'Wisconsin']);
    const sent = harness.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/search');
    expect(Object.fromEntries(sent?.params ?? [])).toEqual({
      name: 'Berlin',
      count: '3',
      language: 'en',
      format: 'json',
    });
  });

  it('answers the same search from the cache, without a request', async () => {
    const before = harness.upstream.count('/v1/search');
    const result = await call('search_locations', { name: 'Berlin', count: 3 });
    expect(result.structuredContent?.freshness).toMatchObject({ from_cache: true, stale: false });
    expect(harness.upstream.count('/v1/search')).toBe(before);
  });

  it('filters by country', async () => {
    const result = await call('search_locations', { name: 'Berlin', country_code: 'us' });
    const locations = result.structuredContent?.locations as Record<string, unknown>[];
    expect(locations.map((location) => location.country_code)).toEqual(['US', 'US', 'US']);
    expect(harness.upstream.requests.at(-1)?.params.get('countryCode')).toBe('US');
  });

  it('says so when nothing matches, and how to search instead (Open-Meteo omits `results`)', async () => {
    const result = await call('search_locations', { name: 'Springfield, IL' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ count: 0, locations: [] });
    expect(result.structuredContent?.notes).toEqual([
      'No place named "Springfield, IL" was found. Search the name alone, without region or country after a comma.',
    ]);
  });
});

describe('get_current_weather', () => {
  it('uses the best match for an ambiguous name, says which, and lists the others', async () => {
    const result = await call('get_current_weather', { location: 'Berlin' });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent ?? {};
    expect(data.location).toEqual({
      name: 'Berlin, Land Berlin, Germany',
      latitude: 52.5244,
      longitude: 13.4105,
      timezone: 'Europe/Berlin',
      resolved_from: 'name',
      query: 'Berlin',
      other_matches: [
        { name: 'Berlin, New Hampshire, United States', latitude: 44.4687, longitude: -71.1851 },
        { name: 'Berlin, Wisconsin, United States', latitude: 43.968, longitude: -88.9435 },
        { name: 'Berlin, Maryland, United States', latitude: 38.3226, longitude: -75.2177 },
        { name: 'Berlin, Schleswig-Holstein, Germany', latitude: 54.0333, longitude: 10.45 },
      ],
    });
    expect((data.notes as string[])[0]).toMatch(
      /^"Berlin" matches several places; this is for Berlin, Land Berlin, Germany \(the best match\)\. Others: Berlin, New Hampshire/,
    );
    expect(data.current).toEqual({
      time: '2026-11-22T14:15:00+01:00',
      temperature: 5.3,
      apparent_temperature: 1.6,
      relative_humidity: 81,
      dew_point: 2.3,
      precipitation: 0,
      weather_code: 3,
      conditions: 'overcast',
      cloud_cover: 100,
      pressure_msl: 1012.4,
      wind_speed: 15.8,
      wind_direction: 246,
      wind_gusts: 33.1,
      uv_index: 0.35,
      is_day: true,
    });
    expect(data.units).toMatchObject({
      temperature: '°C',
      wind_speed: 'km/h',
      precipitation: 'mm',
      pressure_msl: 'hPa',
    });
    const sent = harness.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/forecast');
    expect(Object.fromEntries(sent?.params ?? [])).toMatchObject({
      latitude: '52.5244',
      longitude: '13.4105',
      timezone: 'auto',
      timeformat: 'unixtime',
      temperature_unit: 'celsius',
    });
  });

  it('picks among matches by region after a comma, and knows US state codes', async () => {
    const result = await call('get_current_weather', { location: 'Springfield, IL' });
    expect(result.structuredContent?.location).toMatchObject({
      name: 'Springfield, Illinois, United States',
      latitude: 39.8017,
      longitude: -89.6437,
    });
    expect(result.structuredContent).not.toHaveProperty('notes');
    const search = harness.upstream.requests.filter((request) => request.path === '/v1/search').at(-1);
    expect(search?.params.get('name')).toBe('Springfield');
  });

  it('is an error that lists what was found when the qualifier matches none of it', async () => {
    const result = await call('get_current_weather', { location: 'Springfield, Narnia' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'No place matching "Springfield, Narnia" was found. Places named "Springfield" that were found: Springfield, Missouri, United States; Springfield, Massachusetts, United States; Springfield, Illinois, United States; Springfield, Ohio, United States; Springfield, Oregon, United States. Try search_locations with another spelling or a nearby larger town, or pass latitude and longitude.',
    );
  });

  it('is an error suggesting search_locations when no place has the name', async () => {
    const result = await call('get_current_weather', { location: 'Atlantis' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'No place matching "Atlantis" was found. Try search_locations with another spelling or a nearby larger town, or pass latitude and longitude.',
    );
  });

  it('takes coordinates, rounds them to 4 decimals, and reports the time zone the upstream found', async () => {
    const result = await call('get_current_weather', { latitude: 52.520008123, longitude: 13.404954987 });
    expect(result.structuredContent?.location).toEqual({
      name: null,
      latitude: 52.52,
      longitude: 13.405,
      timezone: 'Europe/Berlin',
      resolved_from: 'coordinates',
    });
    const sent = harness.upstream.requests.at(-1);
    expect([sent?.params.get('latitude'), sent?.params.get('longitude')]).toEqual(['52.52', '13.405']);
  });

  it('converts to imperial units and says so', async () => {
    const result = await call('get_current_weather', { latitude: 52.52, longitude: 13.41, units: 'imperial' });
    const current = result.structuredContent?.current as Record<string, unknown>;
    expect(current.temperature).toBe(41.5);
    expect(result.structuredContent?.units).toMatchObject({
      temperature: '°F',
      wind_speed: 'mph',
      precipitation: 'inch',
    });
    expect(harness.upstream.requests.at(-1)?.params.get('wind_speed_unit')).toBe('mph');
  });

  it.each([
    [
      { location: 'Berlin', latitude: 52.5, longitude: 13.4 },
      'Give either `location` or `latitude` and `longitude`, not both.',
    ],
    [{ latitude: 52.5 }, 'Give both `latitude` and `longitude`.'],
    [{}, 'Say where: a place name in `location`, or `latitude` and `longitude` (this server has no default location).'],
  ])('refuses %j clearly', async (args, message) => {
    const before = harness.upstream.requests.length;
    const result = await call('get_current_weather', args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
    expect(harness.upstream.requests.length).toBe(before);
  });

  it('refuses coordinates out of range before asking anyone', async () => {
    const result = await call('get_current_weather', { latitude: 91, longitude: 0 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/latitude/);
  });
});

describe('get_forecast', () => {
  it('gives daily rows by local date and hourly rows in local time with offset', async () => {
    const result = await call('get_forecast', { location: 'Denver', days: 3, hours: 8 });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent ?? {};
    const daily = data.daily as Record<string, unknown>[];
    expect(daily.map((day) => day.date)).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
    expect(daily[1]).toMatchObject({ weather_code: 61, conditions: 'slight rain', precipitation_probability_max: 90 });
    expect(daily[0]?.sunrise).toBe('2026-11-22T07:47:00+01:00');
    const hourly = data.hourly as Record<string, unknown>[];
    expect(hourly).toHaveLength(8);
    expect(hourly[0]?.time).toBe('2026-11-22T14:00:00+01:00');
    expect(hourly[7]?.cloud_cover).toBeNull();
    expect(data.units).toEqual({
      daily: expect.objectContaining({ temperature_max: '°C', precipitation_sum: 'mm', precipitation_hours: 'h' }),
      hourly: expect.objectContaining({ temperature: '°C', precipitation_probability: '%' }),
    });
    const sent = harness.upstream.requests.at(-1);
    expect([sent?.params.get('forecast_days'), sent?.params.get('forecast_hours')]).toEqual(['3', '8']);
  });

  it('leaves hourly out unless asked', async () => {
    const result = await call('get_forecast', { latitude: 40, longitude: -105 });
    expect(result.structuredContent).not.toHaveProperty('hourly');
    expect(result.structuredContent?.daily).toHaveLength(7);
    expect(harness.upstream.requests.at(-1)?.params.has('hourly')).toBe(false);
  });

  it('refuses more than 16 days', async () => {
    const result = await call('get_forecast', { latitude: 40, longitude: -105, days: 17 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/days/);
  });
});

describe('get_air_quality', () => {
  it('gives AQIs with their categories and pollutants with units', async () => {
    const result = await call('get_air_quality', { location: 'Berlin', hours: 3 });
    const data = result.structuredContent ?? {};
    expect(data.current).toMatchObject({
      time: '2026-11-22T14:00:00+01:00',
      us_aqi: 57,
      us_aqi_category: 'moderate',
      european_aqi: 34,
      european_aqi_category: 'fair',
      pm2_5: 13.6,
    });
    expect(data.units).toMatchObject({ pm2_5: 'μg/m³', us_aqi: 'USAQI' });
    expect(data.hourly).toHaveLength(3);
    expect(harness.upstream.requests.at(-1)?.path).toBe('/v1/air-quality');
  });
});

describe('get_weather_alerts', () => {
  it('lists active alerts most severe first, without test messages, asking NWS as it asks to be asked', async () => {
    const result = await call('get_weather_alerts', { location: 'Denver' });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent ?? {};
    expect(data).toMatchObject({
      coverage: 'nws',
      count: 2,
      area: { city: 'Denver', state: 'CO', office: 'BOU', forecast_zone: 'COZ040', county_zone: 'COC031' },
      summary:
        '2 active NWS alerts for Denver, Colorado, United States (near Denver, CO), the highest severity Severe.',
    });
    const alerts = data.alerts as Record<string, unknown>[];
    expect(alerts[0]).toMatchObject({
      event: 'High Wind Warning',
      severity: 'Severe',
      onset: '2026-11-22T20:00:00-07:00',
      sender: 'NWS Denver CO',
    });
    expect((data.location as Record<string, unknown>).timezone).toBe('America/Denver');
    const points = harness.upstream.requests.find((request) => request.route === '/points');
    expect(points?.path).toBe('/points/39.7392,-104.9847');
    expect(points?.accept).toBe('application/geo+json');
    expect(points?.userAgent).toBe(
      'toolshed-weather/0.1.0 (https://github.com/toolshed/toolshed; weather-tests@example.com)',
    );
    expect(harness.upstream.requests.at(-1)?.params.get('point')).toBe('39.7392,-104.9847');
  });

  it('says there are no alerts where NWS covers and has none', async () => {
    const result = await call('get_weather_alerts', { latitude: 25.7743, longitude: -80.1937 });
    expect(result.structuredContent).toMatchObject({ coverage: 'nws', count: 0, alerts: [] });
    expect(result.structuredContent?.summary).toMatch(/^No active NWS alerts for 25.7743, -80.1937/);
  });

  it('says "no alert coverage here" outside every source’s coverage, never "no alerts", and remembers it', async () => {
    const before = harness.upstream.count('/points');
    const result = await call('get_weather_alerts', { latitude: 35.6895, longitude: 139.6917 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ coverage: 'none', count: 0, alerts: [] });
    const summary = String(result.structuredContent?.summary);
    expect(summary).toMatch(/^No alert coverage here: /);
    expect(summary).not.toMatch(/No active/);
    expect(harness.upstream.count('/alerts/active')).toBe(2);
    const forecasts = harness.upstream.count('/v1/forecast');
    await call('get_weather_alerts', { latitude: 35.6895, longitude: 139.6917 });
    expect(harness.upstream.count('/points')).toBe(before + 1);
    expect(harness.upstream.count('/v1/forecast')).toBe(forecasts);
  });

  it('never sends more than 4 decimals, so NWS has no reason to redirect', async () => {
    const result = await call('get_weather_alerts', { latitude: 39.745612345, longitude: -104.99000001 });
    expect(result.structuredContent?.coverage).toBe('nws');
    const points = harness.upstream.requests.filter((request) => request.route === '/points').at(-1);
    expect(points?.path).toBe('/points/39.7456,-104.99');
  });
});
