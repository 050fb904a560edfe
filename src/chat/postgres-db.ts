/**
 * The PostgreSQL session store's connection: its pool, its table names, its statements (with the
 * client-side timeout; a turn's own prepared by name), and its tables, created on first use.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';
import { endedByServer, ignore, lockKey, notSent } from './postgres-errors.ts';
import type { SqlTables } from './sql-rows.ts';

/** The pool of one store, with its table names and its statement settings. */
export class PgDb {
  private ready: Promise<void> | undefined;

  /**
   * @param pool - The pool statements run on.
   * @param t - The table names.
   * @param prefix - The table name prefix (the advisory lock keys are per prefix).
   * @param queryTimeoutMs - How long the client waits for a statement's answer.
   */
  constructor(
    readonly pool: Pool,
    readonly t: SqlTables,
    readonly prefix: string,
    private readonly queryTimeoutMs: number,
  ) {}

  /**
   * A statement with the client-side timeout (`query_timeout`: node-postgres reads it per query;
   * its type declarations know it only as a connection option).
   */
  config(text: string, values: unknown[], prepared = false): QueryConfig {
    const config: QueryConfig & { readonly query_timeout: number } = {
      text,
      values,
      query_timeout: this.queryTimeoutMs,
      // A named statement is parsed and planned once per connection, then only bound and run.
      ...(prepared ? { name: `turngate_${createHash('sha256').update(text).digest('hex').slice(0, 24)}` } : {}),
    };
    return config;
  }

  /**
   * One statement on a pooled connection, with the client-side timeout (`prepared`: a turn's own).
   * A failure to get the connection is marked as never sent ({@link notSent}); a client whose
   * statement failed is dropped from the pool (as `pool.query` does); a statement the server ended
   * the connection under ({@link endedByServer}: it did not run) is sent once more on a fresh one.
   */
  async q<R extends QueryResultRow>(text: string, values: unknown[] = [], prepared = false): Promise<R[]> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect();
      try {
        const rows = (await client.query<R>(this.config(text, values, prepared))).rows;
        client.off('error', ignore);
        client.release();
        return rows;
      } catch (error) {
        client.off('error', ignore);
        client.release(error instanceof Error ? error : true);
        // A pooled connection the server ended while idle: the statement did not run; once more.
        if (attempt > 0 || !endedByServer(error)) throw error;
      }
    }
  }

  /**
   * A pooled connection, with {@link ignore} listening for its `error` events (a connection lost
   * while it is out of the pool also fails its statement): remove it before releasing the client.
   * The listener is added in the pool's callback, before any other message of the packet that
   * made the connection ready is read (a server ending the connection can send its error in the
   * same packet: with no listener, that error would be thrown). A failure to get a connection is
   * marked as never sent ({@link notSent}).
   */
  connect(): Promise<PoolClient> {
    return new Promise((resolve, reject) => {
      this.pool.connect((error, client) => {
        if (error !== undefined || client === undefined) {
          reject(notSent(error ?? new Error('the pool gave no connection')));
          return;
        }
        client.on('error', ignore);
        resolve(client);
      });
    });
  }

  /** Creates the tables on first use; a failed attempt is retried by the next call. */
  schema(): Promise<void> {
    this.ready ??= this.createSchema().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createSchema(): Promise<void> {
    const { t, prefix } = this;
    const client = await this.connect();
    try {
      await client.query(
        `BEGIN; SELECT pg_advisory_xact_lock(${lockKey('schema', prefix)});` +
          `CREATE TABLE IF NOT EXISTS ${t.sessions} (session_id text PRIMARY KEY, version bigint NOT NULL, message_count integer NOT NULL, record text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());` +
          // Leases are not data: unlogged, so taking one waits for no WAL flush (a crash empties the
          // table, which frees every session; the versions the saves check keep it safe).
          `CREATE UNLOGGED TABLE IF NOT EXISTS ${t.locks} (session_id text PRIMARY KEY, holder text, expires_at timestamptz, version bigint NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.messages} (session_id text NOT NULL, seq integer NOT NULL, message text NOT NULL, PRIMARY KEY (session_id, seq));` +
          `CREATE TABLE IF NOT EXISTS ${t.suspensions} (signal_id text COLLATE "C" PRIMARY KEY, session_id text NOT NULL UNIQUE, suspension text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.resumes} (seq bigserial PRIMARY KEY, session_id text NOT NULL, entry text NOT NULL);` +
          `CREATE TABLE IF NOT EXISTS ${t.sends} (session_id text NOT NULL, send_key text NOT NULL, version bigint NOT NULL, record text NOT NULL, PRIMARY KEY (session_id, send_key));` +
          `CREATE INDEX IF NOT EXISTS ${t.sends}_by_version ON ${t.sends} (session_id, version);` +
          `CREATE TABLE IF NOT EXISTS ${t.effects} (effect_key text PRIMARY KEY, tool_call_id text NOT NULL, tool_name text NOT NULL, input_digest text NOT NULL, join_set_digest text NOT NULL, state text NOT NULL, outcome text, started_at bigint NOT NULL, claimant text);` +
          // A table made before effect claims recorded their claimant gets the column.
          `ALTER TABLE ${t.effects} ADD COLUMN IF NOT EXISTS claimant text;` +
          'COMMIT;',
      );
    } catch (error) {
      await client.query('ROLLBACK').catch(ignore);
      client.off('error', ignore);
      client.release(true);
      throw error;
    }
    client.off('error', ignore);
    client.release();
  }
}
