import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-image',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
