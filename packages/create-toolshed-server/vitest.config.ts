import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'create-toolshed-server',
    // A poll that is met returns at once: the limit is how long a busy machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
    include: ['src/**/*.test.ts'],
    // The end-to-end test packs the workspace, installs each generated project offline and runs its checks.
    testTimeout: 60_000,
  },
});
