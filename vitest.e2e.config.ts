// The end-to-end suite with the real agent CLIs (npm run e2e, which installs them first): one
// file per platform, run one at a time (each starts a CLI, its MCP server and hipo's hooks, and
// the machine has two cores). Not part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
    reporters: ['verbose'],
  },
});
