import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'conformance-fixture',
    include: ['src/**/*.test.ts'],
    testTimeout: 240_000,
  },
});
