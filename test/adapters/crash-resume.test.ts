/**
 * A tool loop killed between the reply and its effects (SIGKILL in a read handler, after the
 * reply was recorded, before any effect), then restarted in other processes that get a
 * regenerated reply: the recorded reply is answered, and the email goes once. Needs dist/.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const script = new URL('../fixtures/adapter-crash.mjs', import.meta.url).pathname;

function run(args: string[]): { recorded: string | null; resumed: boolean; ids: string[]; mutations: string[] } {
  return JSON.parse(execFileSync(process.execPath, [script, ...args], { encoding: 'utf8' }));
}

it('a loop killed after recording the reply and before its effects sends the email once after restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-crash-'));
  const db = join(dir, 'chat.db');
  const outbox = join(dir, 'outbox.txt');
  const killed = spawnSync(process.execPath, [script, db, outbox, 'msg_1', 'toolu_a', 'crash'], { encoding: 'utf8' });
  expect(killed.signal).toBe('SIGKILL');
  expect(existsSync(outbox)).toBe(false);
  // Restarted: the model was asked again and regenerated the turn (another reply id, other call ids).
  const second = run([db, outbox, 'msg_2', 'toolu_b', 'run']);
  expect(second).toEqual({
    recorded: 'msg_1',
    resumed: false,
    ids: ['toolu_a_1', 'toolu_a_2'],
    mutations: ['performed'],
  });
  const third = run([db, outbox, 'msg_3', 'toolu_c', 'run']);
  expect(third.ids).toEqual(['toolu_a_1', 'toolu_a_2']);
  expect(third.mutations).toEqual(['replayed']);
  expect(readFileSync(outbox, 'utf8').trim().split('\n')).toEqual(['ada@example.com']);
});

it('given the regenerated reply itself, the restarted loop answers the recorded one (resumed)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-crash-'));
  const db = join(dir, 'chat.db');
  const outbox = join(dir, 'outbox.txt');
  spawnSync(process.execPath, [script, db, outbox, 'msg_1', 'toolu_a', 'crash'], { encoding: 'utf8' });
  // This process hands answer() the new reply (no recorded() lookup): answer finds the recorded one.
  const out = execFileSync(process.execPath, [script, db, outbox, 'msg_2', 'toolu_b', 'given'], { encoding: 'utf8' });
  expect(JSON.parse(out)).toMatchObject({ resumed: true, ids: ['toolu_a_1', 'toolu_a_2'], mutations: ['performed'] });
  expect(readFileSync(outbox, 'utf8').trim().split('\n')).toEqual(['ada@example.com']);
});
