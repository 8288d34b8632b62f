import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'create-toolshed-server',
    include: ['src/**/*.test.ts'],
    // The end-to-end test packs the workspace, installs each generated project offline and runs its checks.
    testTimeout: 60_000,
  },
});
