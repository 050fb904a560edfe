import { defineConfig } from 'vitest/config';

// The PostgreSQL tests: run by scripts/test.sh when TURNGATE_PG_URL is set.
// `turngate` resolves to src/ (package.json's `@turngate/source` condition), as in vitest.config.ts.
// Vite replaces its default conditions with the ones given: its server defaults stay listed.
const conditions = ['@turngate/source', 'module', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/postgres/**/*.test.ts'],
    testTimeout: 60_000,
    fileParallelism: false,
    globalSetup: ['test/setup/temp-dir.ts'],
  },
});
