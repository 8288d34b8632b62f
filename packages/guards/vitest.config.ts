import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'guards',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
