/**
 * The first state: `CallSpec`, the binding fields of one turn (HARNESS-TYPESTATE §3.1).
 *
 * @module
 */
import type { JoinCheckInputWire } from '../evidence/index.ts';
import type { Result } from '../failures/index.ts';
import type { NormalizedCallSpec } from '../normalize/index.ts';
import { deepFreeze, mint, type Branded } from './brand.ts';
import { check, fail, failed, STAGE_PROTOCOL } from './rows.ts';

/**
 * The action modes. Source: HARNESS-TYPESTATE §7; TOOL-CALLING-HARNESS-TYPESTATE §5.
 *
 * @example
 * ```ts
 * import type { ActionMode } from 'turngate';
 * declare const value: ActionMode;
 * void value;
 * ```
 */
export type ActionMode = 'code' | 'json' | 'text';

/**
 * A CallSpec: the seed-000 §3.1 binding fields, normalized, with a known action mode. `TMode`
 * is the action mode as a literal type when the input gave one, so the builder can type the
 * mode's rules.
 *
 * @example
 * ```ts
 * import { turn, type CallSpec, type ToolRegistry } from 'turngate';
 * declare const spec: CallSpec<'json'>;
 * declare const tools: ToolRegistry;
 * turn(spec, tools); // json mode: at most one request
 * ```
 */
export type CallSpec<TMode extends ActionMode = ActionMode> = Branded<
  'CallSpec',
  { readonly spec: NormalizedCallSpec & { readonly actionMode: TMode } }
>;

/**
 * Mints a `CallSpec` from the seed-000 §3.1 binding fields. Fields are normalized as the join
 * check normalizes them (trimmed; `actionMode`, `executionPattern` lowercased).
 *
 * Failure classes: `tool.schema_invalid` (a field missing, blank or not a string; an action
 * mode other than `code`, `json`, `text`).
 *
 * Source: HARNESS-TYPESTATE §3.1, §7.
 *
 * @param input - `callId`, `modelRef`, `actionMode`, `executionPattern`, `normalizerId` and the six policy digests.
 * @returns The `CallSpec`, or failures.
 * @example
 * ```ts
 * import { callSpec } from 'turngate';
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'json', executionPattern: 'single',
 *   normalizerId: 'nf.v1', mutationPolicyDigest: 'pol.mut', governancePolicyDigest: 'pol.gov',
 *   toolRenderProtocolDigest: 'pol.render', reminderQueuePolicyDigest: 'pol.queue',
 *   stateViewPolicyDigest: 'pol.view', decompositionPolicyDigest: 'pol.decomp' });
 * spec.ok; //=> true
 * ```
 */
export function callSpec<const TMode extends string>(
  input: JoinCheckInputWire['evidence']['callSpec'] & { readonly actionMode: TMode },
): Result<CallSpec<Lowercase<TMode> & ActionMode>> {
  const checked = check({ evidence: { callSpec: input, protocolState: STAGE_PROTOCOL } });
  if (!checked.ok) return failed([checked.failure]);
  const spec = checked.report.normalized.callSpec;
  if (spec.actionMode !== 'code' && spec.actionMode !== 'json' && spec.actionMode !== 'text') {
    return failed([
      fail('tool.schema_invalid', `callSpec.actionMode must be code, json or text, not \`${spec.actionMode}\``),
    ]);
  }
  return {
    ok: true,
    value: mint('CallSpec', { spec: deepFreeze(spec) as CallSpec<Lowercase<TMode> & ActionMode>['spec'] }),
  };
}
