import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Emulators listen on port 0; files run in parallel processes without sharing state.
    pool: 'forks',
    // vega-lite 5 (the dev dependency `vega-lite-v5`, for checking the specs notebooks are given)
    // ships a UMD bundle that requires vega 5 and an ES build with extensionless imports: let
    // vite resolve and transform its ES build.
    server: { deps: { inline: [/vega-lite-v5/] } },
    alias: { 'vega-lite-v5': 'vega-lite-v5/build/src/index.js' },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
