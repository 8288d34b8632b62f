import { describe, expect, it } from 'vitest';
import { createWeatherServer } from './create-weather-server.ts';
import { weatherServerOptions } from './weather-server-options.ts';

describe('weather server options', () => {
  it.each([
    ['no options', {}],
    ['the contact and units', { contact: 'ops@example.com', units: 'imperial' }],
    [
      'upstreams and limits',
      {
        upstreams: { forecastUrl: 'http://127.0.0.1:8080', nwsUrl: 'http://127.0.0.1:8081' },
        openMeteoApiKey: 'key',
        limits: { maxAttempts: 1, requestTimeoutMs: 1000, forecastTtlSeconds: 60, cacheMaxBytes: 1024 },
      },
    ],
  ])('accepts %s', async (_, options) => {
    expect(weatherServerOptions.parse(options)).toMatchObject(options);
    await createWeatherServer(options as never).close();
  });

  it.each([
    [
      'a misspelt limit',
      { limits: { maxAttempt: 2 } },
      /unknown option "maxAttempt" at limits\.maxAttempt; did you mean "maxAttempts"\?/,
    ],
    [
      'a misspelt URL',
      { forcastUrl: 'http://127.0.0.1' },
      /unknown option "forcastUrl" at forcastUrl; did you mean "upstreams\.forecastUrl"\?/,
    ],
    ['a key of another server', { databases: 'shop.db' }, /unknown option "databases" at databases$/],
    [
      'a limit of the wrong type',
      { limits: { maxAttempts: '2' } },
      /options: limits\.maxAttempts: must be a whole number of at least 1/,
    ],
    [
      'units outside the choice',
      { units: 'kelvin' },
      /options: units: Invalid option: expected one of "metric"\|"imperial"/,
    ],
    ['a limit below 1', { limits: { maxAttempts: 0 } }, /limits\.maxAttempts: must be a whole number of at least 1/],
    [
      'a URL that is not http(s)',
      { upstreams: { nwsUrl: 'ftp://127.0.0.1' } },
      /upstreams\.nwsUrl: must be an http\(s\) URL/,
    ],
    ['a contact with parentheses', { contact: 'me (ops)' }, /contact: must be printable ASCII on one line/],
  ])('refuses %s with where it is', (_, options, message) => {
    const create = () => createWeatherServer(options as never);
    expect(create).toThrow(message);
    expect(create).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});
