import { defineConfig } from 'vitest/config';

// The PostgreSQL tests: run by scripts/test.sh when TURNGATE_PG_URL is set.
export default defineConfig({
  test: {
    include: ['test/postgres/**/*.test.ts'],
    testTimeout: 60_000,
    fileParallelism: false,
    globalSetup: ['test/setup/temp-dir.ts'],
  },
});
