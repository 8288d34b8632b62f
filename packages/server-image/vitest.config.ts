import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-image',
    // A poll that is met returns at once: the limit is how long a busy machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    // Sample images are encoded in the hooks; a busy machine may take a while, and that is no failure.
    hookTimeout: 60_000,
  },
});
