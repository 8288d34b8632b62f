import { expect, it } from 'vitest';
import * as weatherServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(weatherServer).sort()).toEqual(['createWeatherServer', 'weatherServerOptions']);
});
