import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server-email',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
