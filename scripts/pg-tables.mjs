// Drops the tables of a PostgreSQL session store's prefix, as the store names them (`sqlTables`,
// the one list of them: sessions, messages, suspensions, resumes, sends, locks, effects), so the
// load test, the fault suite and the benchmarks leave no table behind.
import { sqlTables } from '../dist/chat/sql-rows.js';

/**
 * Drops every table of `prefix`.
 *
 * @param {{ query(text: string): Promise<unknown> }} db - A pg pool or client.
 * @param {string} prefix - The store's `tablePrefix`.
 */
export async function dropStoreTables(db, prefix) {
  await db.query(`DROP TABLE IF EXISTS ${Object.values(sqlTables('dropStoreTables', prefix)).join(', ')}`);
}
