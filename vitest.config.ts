import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Emulators listen on port 0; files run in parallel processes without sharing state.
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
