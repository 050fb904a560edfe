/**
 * What the PostgreSQL tests share: the server (`TURNGATE_PG_URL`, a clear error without it), an
 * administrator pool, and table prefixes of their own whose tables are dropped when the file's
 * tests end. Each test file gets its own instance (vitest isolates modules per file).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { sqlTables } from '../../src/chat/sql-rows.ts';

const url = process.env['TURNGATE_PG_URL'];
if (url === undefined || url === '')
  throw new Error('TURNGATE_PG_URL is not set: start a server with scripts/start-postgres.sh');

/** The server's connection string. */
export const connection: string = url;

/** A pool for the tests' own statements (dropping tables, ending backends), ended with the file. */
export const admin = new pg.Pool({ connectionString: connection, max: 2 });

const prefixes: string[] = [];

/** A table prefix of its own (`<tag>_<12 hex digits>`), its tables dropped after the file's tests. */
export function freshPrefix(tag: string): string {
  const prefix = `${tag}_${randomBytes(6).toString('hex')}`;
  prefixes.push(prefix);
  return prefix;
}

afterAll(async () => {
  for (const prefix of prefixes)
    await admin.query(`DROP TABLE IF EXISTS ${Object.values(sqlTables('test', prefix)).join(', ')}`);
  await admin.end();
});
