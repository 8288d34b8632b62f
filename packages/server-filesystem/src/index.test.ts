import { expect, it } from 'vitest';
import * as filesystemServer from './index.ts';

it('exports exactly its public API', () => {
  expect(Object.keys(filesystemServer).sort()).toEqual(['createFilesystemServer', 'filesystemServerOptions']);
});
