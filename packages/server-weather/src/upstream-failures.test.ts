import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherHarness, textOf, type WeatherHarness } from './__fixtures__/weather-harness.ts';

let harness: WeatherHarness;
/** Each test asks about its own point, so no answer comes from another test's cache. */
let nextLatitude = 10;
const freshPoint = () => ({ latitude: nextLatitude++ + 0.5, longitude: 20.25 });

beforeAll(async () => {
  harness = await startWeatherHarness({
    limits: { headersTimeoutMs: 300, bodyTimeoutMs: 300, maxRetryDelayMs: 2000 },
  });
});

afterAll(async () => {
  expect(harness.specViolations()).toEqual([]);
  await harness.close();
});

/** The server still answers after whatever the test did to it. */
async function expectServerAlive(): Promise<void> {
  const result = await harness.call('search_locations', { name: 'Denver' });
  expect(result.isError).toBeFalsy();
}

function forecastRequests(): number {
  return harness.upstream.count('/v1/forecast');
}

describe('upstream failures', () => {
  it('passes on Open-Meteo’s 400 reason and does not retry it', async () => {
    harness.upstream.script('/v1/forecast', {
      status: 400,
      body: { error: true, reason: 'Parameter forecast_days must be between 0 and 16' },
    });
    const before = forecastRequests();
    const result = await harness.call('get_forecast', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Open-Meteo refused the request (HTTP 400): Parameter forecast_days must be between 0 and 16.',
    );
    expect(forecastRequests() - before).toBe(1);
  });

  it('waits as long as a 429’s Retry-After asks, then succeeds', async () => {
    harness.upstream.script('/v1/forecast', {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: true, reason: 'Too many requests' },
    });
    const before = forecastRequests();
    const started = performance.now();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBeFalsy();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(forecastRequests() - before).toBe(2);
  });

  it('does not sit through a Retry-After longer than its cap; it says when to try again', async () => {
    harness.upstream.script('/v1/forecast', {
      status: 429,
      headers: { 'retry-after': '120' },
      body: { error: true, reason: 'Minutely API request limit exceeded' },
    });
    const before = forecastRequests();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Open-Meteo is limiting requests (HTTP 429); try again in 120 s.');
    expect(forecastRequests() - before).toBe(1);
  });

  it('retries 5xx with backoff and succeeds on the third try', async () => {
    harness.upstream.script('/v1/forecast', { status: 500, body: 'Internal Server Error' }, { status: 503, body: {} });
    const before = forecastRequests();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBeFalsy();
    expect(forecastRequests() - before).toBe(3);
  });

  it('gives up after three 500s with a message the model can pass on', async () => {
    harness.upstream.script(
      '/v1/forecast',
      { status: 500, body: { error: true, reason: 'Database unavailable' } },
      { status: 500, body: { error: true, reason: 'Database unavailable' } },
      { status: 500, body: { error: true, reason: 'Database unavailable' } },
    );
    const before = forecastRequests();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Open-Meteo failed (HTTP 500: Database unavailable) after 3 attempts; try again later.',
    );
    expect(forecastRequests() - before).toBe(3);
    await expectServerAlive();
  });

  it('times out a connection that never answers, retries, and says so', async () => {
    harness.upstream.script('/v1/forecast', { hang: true }, { hang: true }, { hang: true });
    const before = forecastRequests();
    const started = performance.now();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Open-Meteo did not answer in time after 3 attempts; try again in a minute.');
    expect(forecastRequests() - before).toBe(3);
    expect(performance.now() - started).toBeLessThan(5000);
    await expectServerAlive();
  });

  it('retries a connection reset', async () => {
    harness.upstream.script('/v1/forecast', { reset: true });
    const before = forecastRequests();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBeFalsy();
    expect(forecastRequests() - before).toBe(2);
  });

  it('reports malformed JSON without retrying or crashing', async () => {
    harness.upstream.script('/v1/forecast', { status: 200, body: '{"latitude": 52.5, "longitude": ' });
    const before = forecastRequests();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Open-Meteo sent a response that is not valid JSON; try again later.');
    expect(forecastRequests() - before).toBe(1);
    await expectServerAlive();
  });

  it('reports JSON of the wrong shape as the upstream’s fault', async () => {
    harness.upstream.script('/v1/forecast', { status: 200, body: { latitude: 'north', timezone: 3 } });
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Open-Meteo answered in a shape this server does not know \(latitude: /);
  });

  it('treats a geocoding answer without `results` as no match', async () => {
    harness.upstream.script('/v1/search', { status: 200, body: { generationtime_ms: 0.2 } });
    const result = await harness.call('get_forecast', { location: 'Berlin, Germany' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^No place matching "Berlin, Germany" was found\. Try search_locations/);
  });

  it('reads NWS’s problem+json 404 InvalidPoint as "no coverage", not a failure', async () => {
    harness.upstream.script('/points', {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        title: 'Invalid Point',
        type: 'https://api.weather.gov/problems/InvalidPoint',
        status: 404,
        detail: 'Unable to provide data for requested point 40.5,-99.25',
      },
    });
    const result = await harness.call('get_weather_alerts', { latitude: 40.5, longitude: -99.25 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.coverage).toBe('none');
  });

  it('reports other NWS problems with their detail', async () => {
    harness.upstream.script('/points', {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        title: 'Not Found',
        type: 'https://api.weather.gov/problems/NotFound',
        status: 404,
        detail: 'No such office',
      },
    });
    const result = await harness.call('get_weather_alerts', { latitude: 41.5, longitude: -99.25 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('NWS refused the request (HTTP 404): No such office.');
  });

  it('follows NWS’s 301 to the canonical point on the same host', async () => {
    harness.upstream.script('/points', { status: 301, headers: { location: '/points/39.7392,-104.9847' }, body: {} });
    const before = harness.upstream.count('/points');
    const result = await harness.call('get_weather_alerts', { latitude: 39.7, longitude: -104.9 });
    expect(result.structuredContent?.coverage).toBe('nws');
    expect(harness.upstream.count('/points') - before).toBe(2);
    expect(harness.upstream.requests.filter((request) => request.route === '/points').at(-1)?.path).toBe(
      '/points/39.7392,-104.9847',
    );
  });

  it('does not follow a redirect to another host', async () => {
    harness.upstream.script('/points', {
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/meta-data/' },
      body: {},
    });
    const result = await harness.call('get_weather_alerts', { latitude: 39.6, longitude: -104.9 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'NWS redirected the request elsewhere (HTTP 302), which is not followed; check the configured URL.',
    );
  });

  it('shares one upstream request among identical calls made at once', async () => {
    const point = freshPoint();
    harness.upstream.script('/v1/forecast', { delayMs: 100 });
    const before = forecastRequests();
    const results = await Promise.all(Array.from({ length: 10 }, () => harness.call('get_forecast', point)));
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(forecastRequests() - before).toBe(1);
    expect(
      results.filter(
        (result) => (result.structuredContent?.freshness as { from_cache?: boolean } | undefined)?.from_cache,
      ),
    ).toHaveLength(0);
  });
});

describe('cancellation', () => {
  it('aborts the upstream request when the client cancels the call', async () => {
    harness.upstream.script('/v1/forecast', { hang: true });
    const arrived = harness.upstream.nextRequest('/v1/forecast');
    const controller = new AbortController();
    const abortedBefore = harness.upstream.aborted;
    const call = harness.call('get_forecast', freshPoint(), { signal: controller.signal });
    await arrived;
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    for (let waited = 0; harness.upstream.aborted === abortedBefore && waited < 2000; waited += 10) await sleep(10);
    expect(harness.upstream.aborted - abortedBefore).toBe(1);
    await expectServerAlive();
  });

  it('keeps a shared request going while another caller still waits for it', async () => {
    const point = freshPoint();
    harness.upstream.script('/v1/forecast', { delayMs: 300 });
    const arrived = harness.upstream.nextRequest('/v1/forecast');
    const controller = new AbortController();
    const cancelled = harness.call('get_forecast', point, { signal: controller.signal });
    const kept = harness.call('get_forecast', point);
    await arrived;
    controller.abort();
    await expect(cancelled).rejects.toThrow(/abort/i);
    const result = await kept;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.daily).toHaveLength(7);
  });
});

describe('stale on error', () => {
  it('serves the last answer, marked stale with the reason, when the upstream fails after it expired', async () => {
    const stale = await startWeatherHarness({ limits: { currentTtlSeconds: 1, maxAttempts: 2 } });
    try {
      const point = { latitude: 48.8566, longitude: 2.3522 };
      const first = await stale.call('get_current_weather', point);
      expect(first.structuredContent?.freshness).toMatchObject({ from_cache: false, stale: false });
      await sleep(1100);
      stale.upstream.script('/v1/forecast', { status: 502, body: 'Bad Gateway' }, { status: 502, body: 'Bad Gateway' });
      const second = await stale.call('get_current_weather', point);
      expect(second.isError).toBeFalsy();
      expect(second.structuredContent?.freshness).toMatchObject({
        from_cache: true,
        stale: true,
        stale_reason: 'Open-Meteo failed (HTTP 502) after 2 attempts; try again later.',
      });
      expect(second.structuredContent?.current).toEqual(first.structuredContent?.current);
      expect((second.structuredContent?.notes as string[] | undefined)?.at(-1)).toMatch(
        /^The upstream failed just now \(Open-Meteo failed \(HTTP 502\) after 2 attempts; try again later\.\); this is its last answer, from 0 min ago\.$/,
      );
      expect(stale.upstream.count('/v1/forecast')).toBe(3);
      const third = await stale.call('get_current_weather', point);
      expect(third.structuredContent?.freshness).toMatchObject({ from_cache: false, stale: false });
      expect(stale.specViolations()).toEqual([]);
    } finally {
      await stale.close();
    }
  });
});

describe('limits', () => {
  it('refuses an upstream answer over the byte cap', async () => {
    const capped = await startWeatherHarness({ limits: { maxResponseBytes: 4000 } });
    try {
      const result = await capped.call('get_forecast', { latitude: 1, longitude: 1, days: 16, hours: 168 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Open-Meteo sent more than 4000 bytes, the response cap; ask for less (fewer days or hours).',
      );
      const small = await capped.call('search_locations', { name: 'Denver' });
      expect(small.isError).toBeFalsy();
    } finally {
      await capped.close();
    }
  });

  it('says the upstream cannot be reached when nothing listens', async () => {
    const unreachable = await startWeatherHarness({
      upstreams: { forecastUrl: 'http://127.0.0.1:9' },
      limits: { maxAttempts: 2 },
    });
    try {
      const result = await unreachable.call('get_current_weather', { latitude: 1, longitude: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Could not reach Open-Meteo (connection refused) after 2 attempts; this machine may be offline, or the upstream down. Try again later.',
      );
    } finally {
      await unreachable.close();
    }
  });

  it('keeps connections to a handful under concurrent uncached calls', async () => {
    const pooled = await startWeatherHarness({ limits: { maxConnections: 4 } });
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          pooled.call('get_current_weather', { latitude: 30 + index / 100, longitude: -90 }),
        ),
      );
      expect(results.every((result) => !result.isError)).toBe(true);
      expect(pooled.upstream.count('/v1/forecast')).toBe(60);
      expect(pooled.upstream.connections).toBeLessThanOrEqual(4);
    } finally {
      await pooled.close();
    }
  });
});

describe('alert feeds abroad', () => {
  let nextCanadianLatitude = 55.125;
  const inCanada = () => ({ latitude: nextCanadianLatitude++, longitude: -100.5 });

  it('retries MeteoAlarm’s 5xx and succeeds', async () => {
    harness.upstream.script('/feeds', { status: 503, body: 'Service Unavailable' });
    const before = harness.upstream.count('/feeds');
    const result = await harness.call('get_weather_alerts', { location: 'Paris' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.coverage).toBe('meteoalarm');
    expect(harness.upstream.count('/feeds') - before).toBe(2);
  });

  it('passes on Environment Canada’s 404 without retrying it', async () => {
    harness.upstream.script('/rss/weather', { status: 404, body: '<html><body>Not Found</body></html>' });
    const before = harness.upstream.count('/rss/weather');
    const result = await harness.call('get_weather_alerts', inCanada());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Environment Canada refused the request (HTTP 404).');
    expect(harness.upstream.count('/rss/weather') - before).toBe(1);
  });

  it('says when MeteoAlarm limits requests longer than the retry cap', async () => {
    harness.upstream.script('/feeds', { status: 429, headers: { 'retry-after': '120' }, body: '' });
    const result = await harness.call('get_weather_alerts', { location: 'Konstanz' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('MeteoAlarm is limiting requests (HTTP 429); try again in 120 s.');
  });

  it('serves the last feed, marked stale, when MeteoAlarm fails after it expired', async () => {
    const stale = await startWeatherHarness({ limits: { alertsTtlSeconds: 1, maxAttempts: 1 } });
    try {
      const first = await stale.call('get_weather_alerts', { location: 'Berlin, Germany' });
      expect(first.structuredContent).toMatchObject({ coverage: 'meteoalarm', count: 1 });
      await sleep(1100);
      stale.upstream.script('/feeds', { status: 502, body: 'Bad Gateway' });
      const second = await stale.call('get_weather_alerts', { location: 'Berlin, Germany' });
      expect(second.isError).toBeFalsy();
      expect(second.structuredContent).toMatchObject({
        coverage: 'meteoalarm',
        count: 1,
        freshness: { stale: true, stale_reason: 'MeteoAlarm failed (HTTP 502); try again later.' },
      });
      expect(second.structuredContent?.alerts).toEqual(first.structuredContent?.alerts);
    } finally {
      await stale.close();
    }
  });
});
