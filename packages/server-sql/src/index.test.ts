import { expect, it } from 'vitest';
import * as sqlServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(sqlServer).sort()).toEqual(['createSqlServer', 'sqlServerOptions', 'startSqlServer']);
});
