/**
 * Seeded runs over the Tusk commands and files (issue 23): the commands' functions on hostile
 * argument values (every output promise of test/tusk-fuzz.mjs), then processes of the built
 * package against one trajectory (appenders of rows up to 4 MiB beside a repairer; an appender
 * killed with SIGKILL mid-run) and one session artifact (writers killed mid-write). Bounded to
 * seconds; `npm run fuzz:campaign` runs the long version.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { harnessKpiCommand } from '../src/cli/harness-kpi.ts';
import { harnessSessionCommand } from '../src/cli/harness-session.ts';
import { harnessTrajectoryCommand } from '../src/cli/harness-trajectory.ts';
import { readTrajectory, repairTrajectory, writeSession } from '../src/tusk/index.ts';
import {
  DIST,
  appendersAndRepair,
  commandViolations,
  killedSessionWriters,
  rowSizes,
  tuskCommandInput,
} from './tusk-fuzz.mjs';

const SEED = 20260223;
const commands = {
  'harness-session': harnessSessionCommand,
  'harness-trajectory': harnessTrajectoryCommand,
  'harness-kpi': harnessKpiCommand,
};
const dir = () => mkdtempSync(join(tmpdir(), 'turngate-tusk-fuzz-'));

beforeAll(() => {
  if (!existsSync(join(DIST, 'trajectory-store.js')))
    throw new Error('dist/tusk is missing: run `npm run build` first');
});

describe('the Tusk commands on hostile argument values', () => {
  it('exit 0-2 with one escaped, bounded stderr line or none, and escaped, bounded human lines', async () => {
    const root = dir();
    let run = 0;
    const exits = new Set<number>();
    await fc.assert(
      fc.asyncProperty(tuskCommandInput(fc), async (input) => {
        const runDir = mkdtempSync(join(root, `${run++}-`));
        expect(await commandViolations(commands, input, runDir)).toEqual([]);
        exits.add((await commands[input.command](input.args.map((a) => a.replaceAll('{dir}', runDir)))).exitCode);
      }),
      { seed: SEED, numRuns: 400 },
    );
    // The runs reach success and refusal both.
    expect([...exits].sort()).toEqual([0, 2]);
  }, 60_000);
});

describe('processes against one trajectory', () => {
  const lib = { readTrajectory, repairTrajectory };

  it('appenders of rows up to 4 MiB beside a repairer: no acknowledged row lost, no refusal, nothing moved', async () => {
    // Three rounds of 60 rows: without the lock, each of six seeds tried lost rows in one round or more.
    for (let round = 0; round < 3; round++) {
      const sizes = rowSizes(fc, { seed: SEED + round, appenders: 2, rows: 30, large: 1 });
      const result = await appendersAndRepair(lib, { dir: dir(), sizes });
      expect(result).toMatchObject({
        acknowledged: 60,
        lost: 0,
        duplicated: 0,
        refused: 0,
        rows: 60,
        moved: 0,
        errors: [],
      });
      expect(result.repairs).toBeGreaterThan(0);
    }
  }, 60_000);

  it('an appender killed mid-run: its lock is broken, its torn line moved aside, no acknowledged row lost', async () => {
    const sizes = rowSizes(fc, { seed: SEED + 1, appenders: 3, rows: 30, large: 0 });
    const result = await appendersAndRepair(lib, { dir: dir(), sizes, kill: [0], killAfter: 12 });
    expect(result).toMatchObject({ lost: 0, duplicated: 0, tornAfter: 0, errors: [] });
    expect(result.acknowledged).toBeGreaterThanOrEqual(72);
    expect(result.rows).toBe(result.acknowledged);
    expect(result.moved).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('session writers killed with SIGKILL', () => {
  it('leave at most one temp file, which the next write removes', async () => {
    const [after, pauses] = fc.sample(
      fc.tuple(
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 8, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 8, maxLength: 8 }),
      ),
      { seed: SEED, numRuns: 1 },
    )[0] as [number[], number[]];
    const result = await killedSessionWriters({ writeSession }, { dir: dir(), after, pauses });
    expect(result.maxStrays).toBeLessThanOrEqual(1);
    expect(result.afterNextWrite).toBe(0);
  }, 60_000);
});
