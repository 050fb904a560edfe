/**
 * `turngate harness-session write|read|bootstrap`: the session artifact of the Tusk harness
 * contract §11 on the command line, with premath's flags and `--json` output.
 *
 * @module
 */
import {
  DEFAULT_FEATURE_LEDGER_PATH,
  DEFAULT_SESSION_PATH,
  bootstrapFromFiles,
  readSession,
  writeSession,
  type HarnessSession,
} from '../tusk/index.ts';
import {
  clockFlag,
  failed,
  flags,
  humanLines,
  jsonOutput,
  printed,
  runVerb,
  usage,
  type HarnessCommandOutput,
} from './harness-common.ts';
import { quote } from '../internal/display.ts';
import { firstFailure } from '../failures/internal.ts';

const COMMAND = 'harness-session';
const PREFIX = 'harness_session_invalid:';

/** The command's help text. */
export const HARNESS_SESSION_USAGE = `Usage: turngate harness-session write [--path <file>] [--state active|stopped] [options] [--json]
       turngate harness-session read [--path <file>] [--json]
       turngate harness-session bootstrap [--path <file>] [--feature-ledger <file>] [--json]

The harness session artifact (premath.harness.session.v1): compact handoff state for a
fresh-context session. Writes are atomic (temp file, fsync, rename) and update in place:
the session id and startedAt are kept, updatedAt is refreshed, stoppedAt is set exactly when
stopped, blank strings are dropped, refs are trimmed, sorted and deduplicated. A --path that
is a symbolic link is refused by write (the rename would replace the link, not its target):
pass the target's path. Temp files (.<file>.<pid>.<hex>.tmp) that a killed writer left are
removed by the next write or read.

Options:
  --path <file>              the artifact (default ${DEFAULT_SESSION_PATH})
  --json                     print premath's JSON output (sorted keys)
write:
  --state active|stopped     the new state (default stopped)
  --session-id <id>          override the session id
  --issue-id <id>            the current or resumed issue ("" removes it)
  --summary <text>           a compact handoff summary ("" removes it)
  --next-step <text>         the next-step recommendation ("" removes it)
  --instruction-ref <ref>    an instruction ref (repeatable; replaces the list)
  --witness-ref <ref>        a witness ref, e.g. lease://handoff/... (repeatable; replaces the list)
  --lineage-ref <ref>        a site lineage ref, ctx:// cover:// refinement:// (repeatable; replaces the list)
  --issues <file>            issue memory for issuesSnapshotRef (default .premath/issues.jsonl)
  --now <rfc3339>            the time to write (default: the system clock)
bootstrap:
  --feature-ledger <file>    the feature ledger to project (default ${DEFAULT_FEATURE_LEDGER_PATH})

Exit codes: 0 done, 1 a file could not be read or written, 2 invalid input or usage (one
stderr line starting ${PREFIX}).
`;

function summary(title: string, path: string, session: HarnessSession): string {
  const lines = [
    `turngate harness-session ${title}`,
    `  Session ID: ${session.sessionId}`,
    `  State: ${session.state}`,
  ];
  if (session.issueId !== undefined) lines.push(`  Issue: ${session.issueId}`);
  if (session.nextStep !== undefined) lines.push(`  Next Step: ${session.nextStep}`);
  lines.push(`  Path: ${path}`);
  return humanLines(lines);
}

async function write(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_SESSION_PATH },
    state: { type: 'string', default: 'stopped' },
    'session-id': { type: 'string' },
    'issue-id': { type: 'string' },
    summary: { type: 'string' },
    'next-step': { type: 'string' },
    'instruction-ref': { type: 'string', multiple: true },
    'witness-ref': { type: 'string', multiple: true },
    'lineage-ref': { type: 'string', multiple: true },
    issues: { type: 'string', default: '.premath/issues.jsonl' },
    now: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const v = parsed.value;
  if (v.state !== 'active' && v.state !== 'stopped') {
    return usage(COMMAND, `--state expects active or stopped, received ${quote(v.state)}`);
  }
  const clock = clockFlag(COMMAND, v.now);
  if (typeof clock !== 'function') return clock;
  const refs = (list: string[] | undefined) => (list === undefined || list.length === 0 ? undefined : list);
  try {
    const session = await writeSession(
      v.path,
      {
        state: v.state,
        sessionId: v['session-id'],
        issueId: v['issue-id'],
        summary: v.summary,
        nextStep: v['next-step'],
        instructionRefs: refs(v['instruction-ref']),
        witnessRefs: refs(v['witness-ref']),
        lineageRefs: refs(v['lineage-ref']),
        issuesPath: v.issues.trim(),
      },
      { clock },
    );
    return printed(
      v.json
        ? jsonOutput({ action: 'harness-session.write', path: v.path, session })
        : summary('write', v.path, session),
    );
  } catch (error) {
    return failed(PREFIX, error);
  }
}

async function read(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_SESSION_PATH },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const { path, json } = parsed.value;
  try {
    const session = await readSession(path);
    return printed(
      json ? jsonOutput({ action: 'harness-session.read', path, session }) : summary('read', path, session),
    );
  } catch (error) {
    return failed(PREFIX, error);
  }
}

async function bootstrap(args: readonly string[]): Promise<HarnessCommandOutput> {
  const parsed = flags(COMMAND, args, {
    path: { type: 'string', default: DEFAULT_SESSION_PATH },
    'feature-ledger': { type: 'string', default: DEFAULT_FEATURE_LEDGER_PATH },
    json: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return firstFailure(parsed);
  const v = parsed.value;
  try {
    const boot = await bootstrapFromFiles({ sessionPath: v.path, featureLedgerPath: v['feature-ledger'] });
    if (v.json) return printed(jsonOutput(boot));
    const lines = ['turngate harness-session bootstrap', `  Session Ref: ${boot.sessionRef}`, `  Mode: ${boot.mode}`];
    if (boot.resumeIssueId !== null) lines.push(`  Resume Issue: ${boot.resumeIssueId}`);
    if (boot.nextStep !== null) lines.push(`  Next Step: ${boot.nextStep}`);
    if (boot.nextFeatureId !== null) lines.push(`  Next Feature: ${boot.nextFeatureId}`);
    return printed(humanLines(lines));
  } catch (error) {
    return failed(PREFIX, error);
  }
}

/**
 * Runs `turngate harness-session <verb> ...`.
 *
 * @param argv - The arguments after `harness-session`.
 * @returns What to print and the exit code.
 */
export async function harnessSessionCommand(argv: readonly string[]): Promise<HarnessCommandOutput> {
  return runVerb(COMMAND, HARNESS_SESSION_USAGE, { write, read, bootstrap }, argv);
}
