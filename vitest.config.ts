import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The PostgreSQL tests need a server: vitest.postgres.config.ts runs them (scripts/test.sh).
    exclude: ['test/postgres/**', 'node_modules/**'],
    testTimeout: 30_000,
  },
});
