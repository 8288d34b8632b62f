import type { SeriesField } from './open-meteo-answer.ts';

/** The conditions reported both for now and for each forecast hour. */
export const conditionFields: readonly SeriesField[] = [
  { name: 'temperature', variable: 'temperature_2m' },
  { name: 'apparent_temperature', variable: 'apparent_temperature', description: 'Feels-like temperature' },
  { name: 'relative_humidity', variable: 'relative_humidity_2m' },
  { name: 'precipitation', variable: 'precipitation' },
  { name: 'weather_code', variable: 'weather_code', kind: 'code' },
  { name: 'cloud_cover', variable: 'cloud_cover' },
  { name: 'wind_speed', variable: 'wind_speed_10m' },
  { name: 'wind_direction', variable: 'wind_direction_10m', description: 'Degrees the wind comes from, 0 = north' },
  { name: 'wind_gusts', variable: 'wind_gusts_10m' },
];
