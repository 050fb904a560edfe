/**
 * Two processes on one SQLite file deliver the same signals at the same moment: every suspended
 * turn resumes once in total, and the process that loses a race hears `undefined` or
 * `suspension_record_invalid`, never a failed save. The children are test/fixtures/signal-storm.mjs
 * (run against dist/: `npm run build` first); each starts delivering when the parent writes `go`
 * to both, after both opened the file. And a process blocked past its lease is fenced: the child
 * test/fixtures/sqlite-fence.mjs holds a session and blocks; this process takes it over and saves.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createChatHarness, sequentialGraph } from '../src/chat/index.ts';
import { SqliteSessionStore } from '../src/chat/sqlite.ts';

const WORKER = new URL('./fixtures/signal-storm.mjs', import.meta.url).pathname;
const FENCE = new URL('./fixtures/sqlite-fence.mjs', import.meta.url).pathname;
const SESSIONS = 300;

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'chat', 'sqlite.js')))
    throw new Error('dist/chat is missing: run `npm run build` first');
});

/** What one `signal` child reports: the signals its resume node ran for, and each delivery's outcome. */
interface StormReport {
  readonly ran: readonly string[];
  readonly outcomes: Readonly<Record<string, string>>;
}

/** Starts a `signal` child; resolves `ready` once it opened the file, `done` with its report. */
function signaller(args: readonly string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [WORKER, 'signal', ...args]);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) resolve();
    });
  });
  const done = new Promise<StormReport>((resolve, reject) => {
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || line === undefined) reject(new Error(`signal-storm exited ${code}: ${err}`));
      else resolve(JSON.parse(line) as StormReport);
    });
  });
  return { go: () => child.stdin.end('go\n'), ready, done };
}

/**
 * Suspends SESSIONS turns in a fresh file, then runs two `signal` children that deliver every
 * signal at once, started together.
 *
 * @param orders - Each child's delivery order (`forward`, `reverse`).
 * @param busyTimeoutMs - The children's busy timeout (`''`: better-sqlite3's default, 5,000 ms).
 */
async function storm(orders: readonly [string, string], busyTimeoutMs: string) {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-storm-'));
  const file = join(dir, 'chat.db');
  const setup = JSON.parse(
    execFileSync(process.execPath, [WORKER, 'setup', file, String(SESSIONS)], { encoding: 'utf8' }),
  );
  expect(setup).toEqual({ outcomes: { suspended: SESSIONS } });
  const children = orders.map((order) => signaller([file, String(SESSIONS), order, '2', busyTimeoutMs]));
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.go();
  const reports = await Promise.all(children.map((c) => c.done));
  return { dir, file, reports };
}

/** How many times each signal appears in the lists. */
function tally(lists: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const list of lists) for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

const signals = Array.from({ length: SESSIONS }, (_, i) => `sig-${i}`);

/** Every session's history holds its resumed reply exactly once, and nothing waits any more. */
async function everyReplyOnce(file: string): Promise<void> {
  const store = new SqliteSessionStore(file);
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const messages = (await store.load(`s${i}`))?.state.messages ?? [];
      expect(messages.map((m) => m.content)).toEqual([String(i), `resumed sig-${i}`]);
    }
    expect(await store.listSuspended()).toEqual([]);
  } finally {
    store.close();
  }
}

describe('two processes deliver the same signals at once on one SQLite file', () => {
  it.each([
    ['the same order', ['forward', 'forward']],
    ['opposite orders', ['forward', 'reverse']],
  ] as const)(
    'each turn resumes once (%s); the losers hear undefined or suspension_record_invalid',
    async (_, orders) => {
      const { dir, file, reports } = await storm(orders, '');
      try {
        // The resume node ran once per signal, summed over both processes.
        const ran = tally(reports.map((r) => r.ran));
        expect([...ran.keys()].sort()).toEqual([...signals].sort());
        expect(Math.max(...ran.values())).toBe(1);
        for (const signal of signals) {
          const outcomes = reports.map((r) => r.outcomes[signal] ?? 'missing');
          expect(outcomes.filter((o) => o === 'completed')).toHaveLength(1);
          for (const o of outcomes) expect(o).toMatch(/^(completed|undefined|suspension_record_invalid\/)/);
        }
        await everyReplyOnce(file);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('with no busy timeout, a busy database is retryable: no turn resumes twice, and a retry resumes the rest', async () => {
    const { dir, file, reports } = await storm(['forward', 'reverse'], '0');
    try {
      const settled = /^(completed|undefined|suspension_record_invalid\/)/;
      const busy =
        /^session_(save|load)_failed\/retryable_transient\/(SessionStoreUnavailable:busy:SQLITE_BUSY|SessionLockTimeout:busy)/;
      const waiting: number[] = [];
      for (const [i, signal] of signals.entries()) {
        const outcomes = reports.map((r) => r.outcomes[signal] ?? 'missing');
        for (const o of outcomes) expect(settled.test(o) || busy.test(o), `${signal}: ${o}`).toBe(true);
        const completed = outcomes.filter((o) => o === 'completed').length;
        expect(completed).toBeLessThanOrEqual(1);
        // The resume node ran for each completed delivery, and again only after a save that rolled back.
        const failedSaves = outcomes.filter((o) => o.startsWith('session_save_failed/')).length;
        expect(tally(reports.map((r) => r.ran)).get(signal) ?? 0).toBe(completed + failedSaves);
        if (completed === 0) waiting.push(i);
      }
      // The application's retry: deliver again what still waits.
      const store = new SqliteSessionStore(file);
      const stillWaiting = (await store.listSuspended()).map((s) => s.descriptor.signal_id).sort();
      store.close();
      expect(stillWaiting).toEqual(waiting.map((i) => `sig-${i}`).sort());
      if (waiting.length > 0) {
        const retry = signaller([file, String(SESSIONS), 'forward', '0', '', waiting.join(',')]);
        await retry.ready;
        retry.go();
        const report = await retry.done;
        expect(Object.values(report.outcomes)).toEqual(waiting.map(() => 'completed'));
      }
      await everyReplyOnce(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the SQLite session lock fences a holder whose lease ran out', () => {
  it('a process blocked past its lease is refused; the process that took the session over saves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'turngate-fence-'));
    const file = join(dir, 'chat.db');
    const store = new SqliteSessionStore(file, { lockLeaseMs: 200 });
    try {
      for (const sessionId of ['s1', 's2', 's3']) {
        // A holds the session and blocks for 1,000 ms: its 200 ms lease runs out unrenewed.
        const child = spawn(process.execPath, [FENCE, file, sessionId, '200', '1000']);
        let out = '';
        const holding = new Promise<void>((resolve) => {
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            if (out.startsWith('holding\n')) resolve();
          });
        });
        const exited = new Promise<{ outcome: string; category?: string; message?: string }>((resolve, reject) => {
          child.on('close', (code) => {
            const line = out.split('\n').find((l) => l.startsWith('{'));
            if (code !== 0 || line === undefined) reject(new Error(`sqlite-fence exited ${code}`));
            else resolve(JSON.parse(line) as { outcome: string; category?: string; message?: string });
          });
        });
        await holding;
        await new Promise((resolve) => setTimeout(resolve, 400));
        // B takes the session over and holds it (renewing) until A has tried to save.
        const graph = sequentialGraph({
          entry: 'n',
          nodes: {
            n: async () => {
              await exited;
              return { messages: [{ role: 'assistant' as const, content: 'done B' }] };
            },
          },
          edges: [],
        });
        const b = await createChatHarness({ graph, store }).send(sessionId, { role: 'user', content: 'ask B' });
        const a = await exited;
        expect(a.outcome).toBe('errored');
        expect(a.category).toBe('session_write_conflict');
        expect(a.message).toMatch(/its lease ran out and another turn holds it/);
        expect(b.outcome).toBe('completed');
        expect((await store.load(sessionId))?.state.messages.map((m) => m.content)).toEqual(['ask B', 'done B']);
      }
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
