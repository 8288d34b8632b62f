import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'host',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/__fixtures__/isolated-state-home.ts'],
    testTimeout: 30_000,
  },
});
