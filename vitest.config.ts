import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    // The word-vector cache (converted once from the wink package) lives in a temp folder,
    // never in the user's cache; embedding endpoints come only from the tests themselves.
    env: {
      TZ: 'UTC',
      HIPO_NOW: '',
      HIPO_CACHE_DIR: join(tmpdir(), 'hipo-test-cache'),
      HIPO_EMBED_BASE_URL: '',
      HIPO_EMBED_MODEL: '',
      HIPO_EMBED_API_KEY: '',
      // The PostgreSQL tests name their server themselves (HIPO_TEST_PG_URL); a user's own
      // HIPO_PG_URL must not send test rows to it.
      HIPO_PG_URL: '',
      // Hooks start no compaction of their own in the background, where tests check the tree
      // themselves (test/hooks/background.test.ts turns it on).
      HIPO_BACKGROUND_COMPACT: '0',
    },
  },
});
