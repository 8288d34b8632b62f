import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'dev',
    // A poll that is met returns at once: the limit is how long a busy machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
