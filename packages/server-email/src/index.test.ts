import type { StateStore } from '@toolshed/state';
import { expect, expectTypeOf, it } from 'vitest';
import * as emailServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(emailServer).sort()).toEqual(['checkEmailDelivery', 'createEmailServer', 'emailServerOptions']);
});

it('pins the types it exports besides the options: what a host hands the server at run time', () => {
  expectTypeOf<emailServer.EmailServerRuntime>().toEqualTypeOf<{ stateStore?: StateStore | undefined }>();
  expectTypeOf(emailServer.createEmailServer).parameter(1).toEqualTypeOf<emailServer.EmailServerRuntime | undefined>();
});
