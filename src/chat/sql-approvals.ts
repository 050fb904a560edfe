/**
 * The approval records in the SQL stores (SQLite, PostgreSQL), beside the effect ledger: one
 * layout, the four atomic steps of an `ApprovalLedger` as single statements. Internal.
 *
 * Table `<prefix>_approvals`: `approval_key` (the effect's key), `request_digest` (the
 * compare-and-swap token), `request` (canonical JSON), `decision` (canonical JSON, null until
 * decided). A step is one statement: an insert `ON CONFLICT DO NOTHING`, an update guarded by
 * the request digest (and, for a decision, `decision IS NULL`), so of any number of processes one
 * wins. Source: docs/APPROVALS.md §1.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { ApprovalLedger, EffectLedger, StoredApproval, SyncEffectLedger } from '../typestate/index.ts';
import type { PgDb } from './postgres-db.ts';
import { ignore, lockKey } from './postgres-errors.ts';

/** A row of `<prefix>_approvals`. */
interface ApprovalRow {
  readonly approval_key: string;
  readonly request_digest: string;
  readonly request: string;
  readonly decision: string | null;
}

const stored = (row: ApprovalRow): StoredApproval => ({
  key: row.approval_key,
  requestDigest: row.request_digest,
  request: row.request,
  decision: row.decision,
});

/** The SQL of the four steps on `table` (`$n` placeholders: see {@link positional} for SQLite). */
function statements(table: string) {
  return {
    create: `CREATE TABLE IF NOT EXISTS ${table} (approval_key text PRIMARY KEY, request_digest text NOT NULL, request text NOT NULL, decision text)`,
    insert: `INSERT INTO ${table} (approval_key, request_digest, request, decision) VALUES ($1, $2, $3, NULL) ON CONFLICT (approval_key) DO NOTHING`,
    replace: `UPDATE ${table} SET request_digest = $2, request = $3, decision = NULL WHERE approval_key = $1 AND request_digest = $4`,
    decide: `UPDATE ${table} SET decision = $3 WHERE approval_key = $1 AND request_digest = $2 AND decision IS NULL`,
    read: `SELECT approval_key, request_digest, request, decision FROM ${table} WHERE approval_key = $1`,
  };
}

/** A `$n` statement as SQLite's `?` one, with the order its values bind in. */
function positional(text: string): { readonly text: string; readonly bind: (values: unknown[]) => unknown[] } {
  const order: number[] = [];
  const rewritten = text.replace(/\$(\d+)/g, (_match, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { text: rewritten, bind: (values) => order.map((i) => values[i]) };
}

/**
 * The SQLite store's effect ledger with its approval records (`SqliteSessionStore#approvalLedger`).
 *
 * @param db - The store's database.
 * @param table - The approvals table (created here when absent).
 * @param effects - The store's effect ledger.
 */
export function sqliteApprovalLedger(
  db: Database.Database,
  table: string,
  effects: SyncEffectLedger,
): SyncEffectLedger & ApprovalLedger {
  const sql = statements(table);
  db.exec(`${sql.create} WITHOUT ROWID`);
  const step = (text: string) => {
    const { text: sqlite, bind } = positional(text);
    const statement = db.prepare<unknown[]>(sqlite);
    return (...values: unknown[]) => statement.run(...bind(values)).changes === 1;
  };
  const insert = step(sql.insert);
  const replace = step(sql.replace);
  const decide = step(sql.decide);
  const read = db.prepare<[string], ApprovalRow>(positional(sql.read).text);
  return {
    begin: (entry, claimant) => effects.begin(entry, claimant),
    finish: (key, end) => effects.finish(key, end),
    read: (key) => effects.read(key),
    insertApproval: (s) => insert(s.key, s.requestDigest, s.request),
    replaceApproval: (s, previous) => replace(s.key, s.requestDigest, s.request, previous),
    recordDecision: (key, requestDigest, decision) => decide(key, requestDigest, decision),
    readApproval: (key) => {
      const row = read.get(key);
      return row === undefined ? undefined : stored(row);
    },
  };
}

/** Creates the table under the schema's advisory lock (two processes creating one table at once collide). */
async function createIn(db: PgDb, create: string): Promise<void> {
  const client = await db.pool.connect();
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${lockKey('schema', db.prefix)}); ${create}; COMMIT;`);
  } catch (error) {
    await client.query('ROLLBACK').catch(ignore);
    client.release(true);
    throw error;
  }
  client.release();
}

/**
 * The PostgreSQL store's effect ledger with its approval records (`PostgresSessionStore#approvalLedger`).
 *
 * @param db - The store's connection.
 * @param effects - The store's effect ledger.
 */
export function postgresApprovalLedger(db: PgDb, effects: EffectLedger): ApprovalLedger {
  const sql = statements(db.t.approvals);
  let ready: Promise<void> | undefined;
  const schema = (): Promise<void> => {
    ready ??= db
      .schema()
      .then(() => createIn(db, sql.create))
      .then(
        () => undefined,
        (error: unknown) => {
          ready = undefined;
          throw error;
        },
      );
    return ready;
  };
  const changed = async (text: string, values: unknown[]): Promise<boolean> => {
    await schema();
    return (await db.pool.query(db.config(text, values, true))).rowCount === 1;
  };
  return {
    begin: (entry, claimant) => effects.begin(entry, claimant),
    finish: (key, end) => effects.finish(key, end),
    read: (key) => effects.read(key),
    insertApproval: (s) => changed(sql.insert, [s.key, s.requestDigest, s.request]),
    replaceApproval: (s, previous) => changed(sql.replace, [s.key, s.requestDigest, s.request, previous]),
    recordDecision: (key, requestDigest, decision) => changed(sql.decide, [key, requestDigest, decision]),
    readApproval: async (key) => {
      await schema();
      const row = (await db.q<ApprovalRow>(sql.read, [key], true))[0];
      return row === undefined ? undefined : stored(row);
    },
  };
}
