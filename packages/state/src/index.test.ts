import { expect, it } from 'vitest';
import * as api from './index.ts';
import * as testing from './testing.ts';

it('pins the public API: adding to it is a decision', () => {
  expect(Object.keys(api).sort()).toEqual([
    'StateStoreError',
    'defaultStatePath',
    'openStateStore',
    'printableStoreUrl',
  ]);
  expect(Object.keys(testing).sort()).toEqual(['postgresStateService', 'startPostgresStateServer']);
});
