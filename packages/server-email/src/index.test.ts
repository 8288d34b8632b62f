import { expect, it } from 'vitest';
import * as emailServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(emailServer).sort()).toEqual(['checkEmailDelivery', 'createEmailServer', 'emailServerOptions']);
});
