import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'host',
    // A poll that is met returns at once: the limit is how long a busy machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/__fixtures__/isolated-state-home.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
