import { expect, it } from 'vitest';
import * as imageServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(imageServer).sort()).toEqual(['createImageServer', 'imageServerOptions']);
});
