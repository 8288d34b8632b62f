import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
