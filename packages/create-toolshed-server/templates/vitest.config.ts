import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Bin cases start a process and a client: a guard against a hang, not a speed bar.
    testTimeout: 60_000,
  },
});
