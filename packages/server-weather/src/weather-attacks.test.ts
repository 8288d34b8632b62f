/**
 * What a hostile model (through the arguments) or a hostile or broken
 * upstream (through its answers) can try, one row each. The server must
 * send nothing it was not asked to, follow nothing off its configured hosts,
 * hold no call longer than its limits, and keep answering.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherHarness, textOf, type WeatherHarness } from './__fixtures__/weather-harness.ts';

let harness: WeatherHarness;
let nextLatitude = -60;
const freshPoint = () => ({ latitude: nextLatitude++ + 0.25, longitude: -30.5 });

beforeAll(async () => {
  harness = await startWeatherHarness({
    limits: {
      headersTimeoutMs: 500,
      bodyTimeoutMs: 500,
      requestTimeoutMs: 800,
      maxAttempts: 2,
      maxResponseBytes: 1_000_000,
    },
    openMeteoApiKey: 'secret-key',
  });
});

afterAll(async () => {
  expect(harness.specViolations()).toEqual([]);
  await harness.close();
});

async function expectServerAlive(): Promise<void> {
  const result = await harness.call('search_locations', { name: 'Denver' });
  expect(result.isError).toBeFalsy();
}

describe('arguments cannot reshape the upstream request', () => {
  it.each([
    'Berlin&latitude=0&apikey=stolen',
    'Berlin#fragment',
    '../../v1/forecast?current=x',
    'Berlin\r\nX-Injected: 1',
    '%2e%2e%2fadmin',
    'Berlin?name=Paris',
  ])('%j is sent only as the `name` value, on the search path', async (name) => {
    const before = harness.upstream.requests.length;
    await harness.call('search_locations', { name });
    const sent = harness.upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe('/v1/search');
    expect(sent[0]?.params.getAll('name')).toEqual([name.trim()]);
    expect(sent[0]?.params.getAll('apikey')).toEqual(['secret-key']);
    expect([...(sent[0]?.params.keys() ?? [])].sort()).toEqual(['apikey', 'count', 'format', 'language', 'name']);
  });

  it('never puts the API key in a message', async () => {
    harness.upstream.script('/v1/forecast', { status: 400, body: { error: true, reason: 'bad' } });
    const result = await harness.call('get_current_weather', freshPoint());
    expect(JSON.stringify(result)).not.toContain('secret-key');
  });

  it('does not send the Open-Meteo key to NWS', async () => {
    const before = harness.upstream.requests.length;
    await harness.call('get_weather_alerts', { latitude: 39.7392, longitude: -104.9847 });
    for (const request of harness.upstream.requests.slice(before)) expect(request.params.has('apikey')).toBe(false);
  });
});

describe('the upstream cannot lead the server elsewhere', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:1/',
    'https://evil.example/points/1,1',
    '//evil.example/points/1,1',
    'file:///etc/passwd',
  ])('a redirect to %s is refused', async (location) => {
    harness.upstream.script('/points', { status: 302, headers: { location }, body: {} });
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_weather_alerts', { latitude: nextLatitude++ + 80.5, longitude: -100.25 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^NWS redirected the request elsewhere \(HTTP 302\), which is not followed/);
    expect(harness.upstream.requests.length - before).toBe(1);
  });

  it('a same-host redirect loop stops after 3 hops', async () => {
    const loop = { status: 301, headers: { location: '/points/1,1' }, body: {} };
    harness.upstream.script('/points', loop, loop, loop, loop);
    const before = harness.upstream.count('/points');
    const result = await harness.call('get_weather_alerts', { latitude: 30.5, longitude: -100.25 });
    expect(result.isError).toBe(true);
    expect(harness.upstream.count('/points') - before).toBe(4);
  });

  it('URLs inside an answer are read for their ids, never fetched', async () => {
    harness.upstream.script('/points', {
      status: 200,
      body: {
        properties: {
          cwa: 'BOU',
          forecastZone: 'http://169.254.169.254/zones/forecast/COZ040',
          county: 'http://127.0.0.1:1/zones/county/COC031',
          relativeLocation: { properties: { city: 'Denver', state: 'CO' } },
        },
      },
    });
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_weather_alerts', { latitude: 31.5, longitude: -100.25 });
    expect(result.structuredContent?.area).toMatchObject({ forecast_zone: 'COZ040', county_zone: 'COC031' });
    expect(harness.upstream.requests.slice(before).map((request) => request.route)).toEqual([
      '/points',
      '/alerts/active',
    ]);
  });
});

describe('hostile answers cannot hold or sink the server', () => {
  it('a body that trickles in forever is cut at the per-try deadline', async () => {
    harness.upstream.script('/v1/forecast', { trickleMs: 100 }, { trickleMs: 100 });
    const started = performance.now();
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Open-Meteo did not answer in time after 2 attempts; try again in a minute.');
    expect(performance.now() - started).toBeLessThan(3000);
    await expectServerAlive();
  });

  it('an endless body is cut at the size cap while it streams', async () => {
    const before = process.memoryUsage().rss;
    harness.upstream.script('/v1/forecast', { streamBytes: 200_000_000 });
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Open-Meteo sent more than 1000000 bytes, the response cap/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100_000_000);
    await expectServerAlive();
  });

  it('a declared length over the cap is refused before reading', async () => {
    harness.upstream.script('/v1/forecast', {
      status: 200,
      headers: { 'content-length': '5000000' },
      body: ' '.repeat(5_000_000),
    });
    const result = await harness.call('get_current_weather', freshPoint());
    expect(textOf(result)).toMatch(/^Open-Meteo sent more than 1000000 bytes/);
  });

  it('a gzip bomb is never inflated: compression is not asked for, and unasked encodings are not decoded', async () => {
    const bomb = gzipSync(Buffer.alloc(50_000_000, ' '));
    harness.upstream.script('/v1/forecast', {
      status: 200,
      headers: { 'content-encoding': 'gzip' },
      body: bomb,
    });
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Open-Meteo sent a response that is not valid JSON; try again later.');
    expect(harness.upstream.requests[before]).toBeDefined();
    await expectServerAlive();
  });

  it('a megabyte alert description is shortened', async () => {
    harness.upstream.script('/alerts/active', {
      status: 200,
      body: {
        features: [{ properties: { event: 'Flood Warning', severity: 'Severe', description: 'x'.repeat(900_000) } }],
        updated: null,
      },
    });
    const result = await harness.call('get_weather_alerts', { latitude: 32.5, longitude: -100.25 });
    const alerts = result.structuredContent?.alerts as { description: string }[] | undefined;
    expect(alerts?.[0]?.description.length).toBe(3001);
  });

  it.each([
    ['null', 'null'],
    ['an array', '[]'],
    [
      'a number where times go',
      JSON.stringify({ latitude: 1, longitude: 1, timezone: 'UTC', utc_offset_seconds: 0, current: { time: 'now' } }),
    ],
    ['a prototype-polluting key', '{"__proto__": {"polluted": true}, "latitude": 1}'],
    [
      'a unit that is not a string',
      JSON.stringify({ latitude: 1, longitude: 1, timezone: 'UTC', utc_offset_seconds: 0, current_units: { time: 1 } }),
    ],
    [
      'an hourly series holding text',
      JSON.stringify({ latitude: 1, longitude: 1, timezone: 'UTC', utc_offset_seconds: 0, hourly: { time: [1, 'x'] } }),
    ],
  ])('an answer that is %s is the upstream’s fault, not a crash', async (_label, body) => {
    harness.upstream.script('/v1/forecast', { status: 200, body });
    const result = await harness.call('get_current_weather', freshPoint());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Open-Meteo answered in a shape this server does not know/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the alert feeds abroad (MeteoAlarm, Environment Canada)', () => {
  /** Coordinates in Germany: NWS says not mine, the time zone says Germany, so MeteoAlarm's German feed is read. */
  const inGermany = { latitude: 52.52, longitude: 13.405 };
  /** A new point in Canada each time, so each reads a feed of its own. */
  let nextCanadianLatitude = 50.125;
  const inCanada = () => ({ latitude: nextCanadianLatitude++, longitude: -97.25 });
  const atom = (entries: string) =>
    `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><title>t</title>${entries}</feed>`;

  it.each([
    ['MeteoAlarm', '/feeds', () => inGermany],
    ['Environment Canada', '/rss/weather', inCanada],
  ] as const)('a redirect from %s to another host is refused', async (upstream, route, where) => {
    harness.upstream.script(route, {
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/meta-data/' },
      body: {},
    });
    const before = harness.upstream.count(route);
    const result = await harness.call('get_weather_alerts', where());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `${upstream} redirected the request elsewhere (HTTP 302), which is not followed; check the configured URL.`,
    );
    expect(harness.upstream.count(route) - before).toBe(1);
  });

  it.each([
    [
      'an entity expansion bomb',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><feed><entry><title>&lol2;</title></entry></feed>`,
    ],
    [
      'an external entity',
      `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed><entry><title>&xxe;</title></entry></feed>`,
    ],
  ])('%s is refused unread', async (_label, body) => {
    harness.upstream.script('/feeds', { status: 200, headers: { 'content-type': 'application/atom+xml' }, body });
    const result = await harness.call('get_weather_alerts', inGermany);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'MeteoAlarm sent a response that is not a feed this server reads (not well-formed XML); try again later.',
    );
    expect(JSON.stringify(result)).not.toContain('root:');
    await expectServerAlive();
  });

  it('an HTML page where a feed should be is the upstream’s fault, not a crash', async () => {
    harness.upstream.script('/feeds', { status: 200, body: '<html><body>Maintenance</body></html>' });
    const result = await harness.call('get_weather_alerts', inGermany);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^MeteoAlarm answered in a shape this server does not know \(body: expected an Atom feed\)/,
    );
  });

  it('a feed that trickles in forever is cut at the per-try deadline', async () => {
    harness.upstream.script('/rss/weather', { trickleMs: 100 }, { trickleMs: 100 });
    const result = await harness.call('get_weather_alerts', inCanada());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Environment Canada did not answer in time after 2 attempts; try again in a minute.');
    await expectServerAlive();
  });

  it('an endless feed is cut at the size cap while it streams', async () => {
    harness.upstream.script('/feeds', { streamBytes: 200_000_000 });
    const result = await harness.call('get_weather_alerts', inGermany);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^MeteoAlarm sent more than 1000000 bytes, the response cap/);
  });

  it('links and URLs inside a feed are read as text, never fetched', async () => {
    harness.upstream.script('/rss/weather', {
      status: 200,
      body: atom(`<entry><title>RED WARNING - WIND, Here</title><category term="Warnings and Watches"/>
        <link href="http://169.254.169.254/latest/meta-data/"/><id>http://127.0.0.1:1/alert</id>
        <summary type="html">See &lt;a href="http://evil.example/"&gt;this&lt;/a&gt;</summary></entry>`),
    });
    const before = harness.upstream.requests.length;
    const result = await harness.call('get_weather_alerts', inCanada());
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.alerts).toMatchObject([
      { event: 'RED WARNING - WIND', severity: 'Extreme', id: 'http://127.0.0.1:1/alert', description: 'See this' },
    ]);
    expect(harness.upstream.requests.slice(before).map((request) => request.route)).toEqual([
      '/points',
      '/v1/forecast',
      '/rss/weather',
    ]);
  });

  it.each(['__proto__', 'constructor'])('an element named %s is refused, and pollutes nothing', async (name) => {
    harness.upstream.script('/rss/weather', {
      status: 200,
      body: atom(`<entry><title>t</title><${name}><polluted>true</polluted></${name}></entry>`),
    });
    const result = await harness.call('get_weather_alerts', inCanada());
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Environment Canada sent a response that is not a feed this server reads/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
