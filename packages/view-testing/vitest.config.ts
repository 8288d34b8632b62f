import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'view-testing',
    include: ['src/**/*.test.ts'],
  },
});
