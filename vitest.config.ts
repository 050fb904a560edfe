import { defineConfig } from 'vitest/config';

// Tests import `turngate` (and its subpaths) from src/ through the package's source export
// condition (`@turngate/source` in package.json's `exports`): no build before a test run.
// Vite replaces its default conditions with the ones given: its server defaults stay listed.
const conditions = ['@turngate/source', 'module', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The PostgreSQL tests need a server: vitest.postgres.config.ts runs them (scripts/test.sh).
    exclude: ['test/postgres/**', 'node_modules/**'],
    testTimeout: 30_000,
    // Temporary folders of the run (the tests' and their processes') are removed when it ends.
    globalSetup: ['test/setup/temp-dir.ts'],
  },
});
