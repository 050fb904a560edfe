// Types of test/tusk-fuzz.mjs, for the tests that import it.
import type { Arbitrary } from 'fast-check';
import type FastCheck from 'fast-check';

/** The built Tusk modules the children import. */
export declare const DIST: string;

/** A child holding the trajectory lock in the middle of a line (or killed there). */
export interface LockHolderChild {
  readonly pid: number;
  readonly signal: NodeJS.Signals | null;
  finish(): Promise<void>;
}

export declare function holdLockMidLine(
  path: string,
  stepId: string,
  options?: { readonly kill?: boolean },
): Promise<LockHolderChild>;

/** What no printed line may hold raw. */
export declare const RAW: RegExp;
/** The longest line a command may print. */
export declare const MAX_LINE: number;

export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}
export type TuskCommandName = 'harness-session' | 'harness-trajectory' | 'harness-kpi';
export interface TuskCommandInput {
  readonly command: TuskCommandName;
  readonly args: readonly string[];
}

export declare function tuskCommandInput(fc: typeof FastCheck): Arbitrary<TuskCommandInput>;
export declare function commandViolations(
  commands: Record<TuskCommandName, (args: readonly string[]) => Promise<CommandOutput>>,
  input: TuskCommandInput,
  dir: string,
): Promise<string[]>;

export declare function rowSizes(
  fc: typeof FastCheck,
  options: { readonly seed: number; readonly appenders: number; readonly rows: number; readonly large: number },
): number[][];

export interface TrajectoryLib {
  readTrajectory(path: string): Promise<{ readonly rows: readonly { readonly stepId: string }[]; readonly tornTail?: unknown }>;
  repairTrajectory(path: string): Promise<{ readonly savedTo?: string }>;
}
export interface AppendersResult {
  readonly acknowledged: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly refused: number;
  readonly rows: number;
  readonly tornAfter: number;
  readonly moved: number;
  readonly repairs: number;
  readonly errors: readonly string[];
}
export declare function appendersAndRepair(
  lib: TrajectoryLib,
  options: {
    readonly dir: string;
    readonly sizes: readonly (readonly number[])[];
    readonly repair?: boolean;
    readonly kill?: readonly number[];
    readonly killAfter?: number;
  },
): Promise<AppendersResult>;

export declare function killedSessionWriters(
  lib: { writeSession(path: string, update: { state: 'active' | 'stopped'; issuesPath?: string }): Promise<unknown> },
  options: { readonly dir: string; readonly after: readonly number[]; readonly pauses: readonly number[] },
): Promise<{ kills: number; maxStrays: number; afterKills: number; afterNextWrite: number }>;
