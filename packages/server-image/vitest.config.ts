import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-image',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
    // Sample images are encoded in the hooks; a busy machine may take a while, and that is no failure.
    hookTimeout: 60_000,
  },
});
