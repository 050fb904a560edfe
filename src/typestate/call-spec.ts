/**
 * The first state: `CallSpec`, the binding fields of one turn (HARNESS-TYPESTATE §3.1), with the
 * default profile filling every field the caller does not give.
 *
 * @module
 */
import * as v from 'valibot';
import { trimWhiteSpace } from '../canonical/index.ts';
import type { Result } from '../failures/index.ts';
import { ownEntries } from '../internal/entries.ts';
import type { NormalizedCallSpec } from '../normalize/index.ts';
import { deepFreeze, mint, type Branded } from './brand.ts';
import type { ActionModeCheck, ModeNamed } from './message-checks.ts';
import { DEFAULT_CALL_SPEC_FIELDS } from './profile.ts';
import { fail } from '../failures/internal.ts';
import { checkStage, parseOwnData, STAGE_PROTOCOL } from './rows.ts';
import type { ActionMode } from './states.ts';

export type { ActionMode } from './states.ts';

/**
 * The action mode a `CallSpec` type knows (`ActionMode` when it does not).
 *
 * @example
 * ```ts
 * import type { CallSpec } from 'turngate';
 * import type { ModeOf } from 'turngate/types';
 * const mode: ModeOf<CallSpec<'json'>> = 'json';
 * ```
 */
export type ModeOf<T> = T extends { readonly spec: { readonly actionMode: infer TMode extends ActionMode } }
  ? TMode
  : ActionMode;

/**
 * A CallSpec: the HARNESS-TYPESTATE §3.1 binding fields, normalized, with a known action mode,
 * and the session the turn belongs to. `TMode` is the action mode as a literal type when the
 * input gave one, so the builder can type the mode's rules; `CallSpec` (mode `ActionMode`) is a
 * spec whose mode the types do not know.
 *
 * @example
 * ```ts
 * import { callSpec } from 'turngate';
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'json' });
 * if (spec.ok) spec.value.spec.actionMode; //=> 'json'
 * ```
 */
export type CallSpec<TMode extends ActionMode = ActionMode> = Branded<
  'CallSpec',
  {
    /** The normalized binding fields, as the join check binds them. */
    readonly spec: NormalizedCallSpec & { readonly actionMode: TMode };
    /** The session the turn belongs to: the source of its default session and trajectory refs. */
    readonly sessionId: string;
  }
>;

/**
 * What `callSpec` takes: the turn's identity (`callId`, `modelRef`, `actionMode`), optionally
 * any of the other HARNESS-TYPESTATE §3.1 fields (each absent one comes from the default
 * profile, `DEFAULT_CALL_SPEC_FIELDS`), and optionally the `sessionId` (default: the `callId`).
 *
 * @example
 * ```ts
 * import type { CallSpecFields } from 'turngate/types';
 * const fields: CallSpecFields = { callId: 'turn-1', modelRef: 'gpt-5', actionMode: 'code', sessionId: 'support/4711' };
 * ```
 */
export interface CallSpecFields<TMode extends string = string> {
  /** The deterministic turn identity. */
  readonly callId: string;
  /** The model and version used for the turn. */
  readonly modelRef: string;
  /** `code`, `json` or `text` (any case). */
  readonly actionMode: TMode;
  /** Default `single`. */
  readonly executionPattern?: string;
  /** Default: the normalization kind (`premath.harness.typestate_normalized.v1`). */
  readonly normalizerId?: string;
  /** Default: the digest of `DEFAULT_POLICIES.mutation`. */
  readonly mutationPolicyDigest?: string;
  /** Default: the digest of `DEFAULT_POLICIES.governance`. */
  readonly governancePolicyDigest?: string;
  /** Default: the digest of `DEFAULT_POLICIES.toolRender`. */
  readonly toolRenderProtocolDigest?: string;
  /** Default: the digest of `DEFAULT_POLICIES.reminderQueue`. */
  readonly reminderQueuePolicyDigest?: string;
  /** Default: the digest of `DEFAULT_POLICIES.stateView`. */
  readonly stateViewPolicyDigest?: string;
  /** Default: the digest of `DEFAULT_POLICIES.decomposition`. */
  readonly decompositionPolicyDigest?: string;
  /** The session the turn belongs to; default: the `callId`. */
  readonly sessionId?: string;
}

const optionalText = v.optional(v.string());
const FieldsSchema = v.object(
  ownEntries({
    callId: v.string(),
    modelRef: v.string(),
    actionMode: v.string(),
    executionPattern: optionalText,
    normalizerId: optionalText,
    mutationPolicyDigest: optionalText,
    governancePolicyDigest: optionalText,
    toolRenderProtocolDigest: optionalText,
    reminderQueuePolicyDigest: optionalText,
    stateViewPolicyDigest: optionalText,
    decompositionPolicyDigest: optionalText,
    sessionId: optionalText,
  }),
);

/**
 * Mints a `CallSpec`. Every HARNESS-TYPESTATE §3.1 field the input does not give comes from the
 * default profile (`DEFAULT_CALL_SPEC_FIELDS`: each policy digest is the digest of a published
 * policy object, `DEFAULT_POLICIES`). Fields are normalized as the join check normalizes them
 * (trimmed; `actionMode`, `executionPattern` lowercased). The input is read as own data only.
 *
 * Failure classes: `tool.schema_invalid` (a field missing, blank or not a string; an action
 * mode other than `code`, `json`, `text`; an input that is not plain data).
 *
 * Source: HARNESS-TYPESTATE §3.1, §7.
 *
 * @param input - `callId`, `modelRef`, `actionMode`; optionally the other binding fields and `sessionId`.
 * @returns The `CallSpec`, or failures.
 * @example
 * ```ts
 * import { callSpec, DEFAULT_CALL_SPEC_FIELDS } from 'turngate';
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'code' });
 * spec.ok; //=> true
 * if (spec.ok) spec.value.spec.mutationPolicyDigest === DEFAULT_CALL_SPEC_FIELDS.mutationPolicyDigest; //=> true
 * ```
 */
export function callSpec<const TMode extends string>(
  input: CallSpecFields<ActionModeCheck<TMode>>,
): Result<CallSpec<ModeNamed<TMode>>> {
  const parsed = parseOwnData(FieldsSchema, input, { root: 'callSpec' });
  if (!parsed.ok) return parsed;
  const { sessionId, ...fields } = parsed.value;
  // The CallSpec alone: its fields normalized and refused as the join check does, no digest.
  const checked = checkStage({
    evidence: {
      callSpec: {
        ...DEFAULT_CALL_SPEC_FIELDS,
        ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
        callId: fields.callId,
        modelRef: fields.modelRef,
        actionMode: fields.actionMode,
      },
      protocolState: STAGE_PROTOCOL,
    },
  });
  if (!checked.ok) return checked;
  const spec = checked.value.callSpec;
  if (spec.actionMode !== 'code' && spec.actionMode !== 'json' && spec.actionMode !== 'text') {
    return fail('tool.schema_invalid', `callSpec.actionMode must be code, json or text, not \`${spec.actionMode}\``);
  }
  const session = sessionId === undefined ? '' : trimWhiteSpace(sessionId);
  return {
    ok: true,
    value: mint('CallSpec', {
      spec: deepFreeze({ ...spec, actionMode: spec.actionMode as ModeNamed<TMode> }),
      sessionId: session === '' ? spec.callId : session,
    }),
  };
}
