import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI and daemon tests run the compiled hipo as real child processes: build it once.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores here: keep parallel files modest so timing-sensitive child-process tests are fair.
    maxWorkers: 2,
    env: { TZ: 'UTC', HIPO_NOW: '' },
  },
});
