/**
 * The default profile: published policy objects whose digests fill a CallSpec's policy fields,
 * and the context evidence a turn derives from its own results under them.
 *
 * @module
 */
import { compareUtf8, digest } from '../canonical/index.ts';
import { deepFreeze } from '../internal/freeze.ts';
import { NORMALIZED_KIND, type NormalizedCallSpec } from '../normalize/index.ts';

/**
 * The policies of the default profile, as data. Each policy's digest (`digest(policy)`, canonical
 * JSON + SHA-256) is the CallSpec field it fills, so a turn's record names exactly this text, and
 * closing a turn under it derives the context evidence these policies describe.
 *
 * Source: HARNESS-TYPESTATE §3.1 (the policy digests), §3.2 (`toolRender`, `reminderQueue`,
 * `stateViews`), §5 (context reconstruction before continuing); TOOL-CALLING-HARNESS-TYPESTATE §4.1.
 *
 * @example
 * ```ts
 * import { DEFAULT_POLICIES } from 'turngate';
 * DEFAULT_POLICIES.toolRender.injectionPoint; //=> 'tool_response'
 * ```
 */
export const DEFAULT_POLICIES = deepFreeze({
  mutation: {
    policy: 'turngate.mutation.v1',
    gate: 'admitMutation mints MutationReady from a JoinClosed; performMutation, performMutationTool and settleMutations run effects',
    intents: [
      'a requested call of a mutation: true tool, recorded pending',
      'a consumed row whose evidence has a mutationInputRef and a mutationInput',
    ],
    inputBinding: 'canonical JSON SHA-256 digest equality with the bound input',
    runsPerIntent: 1,
    refusesWhen: 'the turn declares no intent, or any call of the turn was refused with a failure class',
  },
  governance: {
    policy: 'turngate.governance.v1',
    profileClaim: 'none: the governance classes are claim-gated and this profile claims none',
  },
  toolRender: {
    policy: 'turngate.tool-render.v1',
    rows: 'one per tool result',
    injectionPoint: 'tool_response',
    operatorPayloadDigest:
      'the resultDigest of an ok result; the digest of { errorCode, retryable, errorMessage } of an error result',
    reminderRenderDigest:
      'the digest of { toolCallId, toolName, isError, operatorPayloadDigest }: the model-facing tool result block',
  },
  reminderQueue: {
    policy: 'turngate.reminder-queue.v1',
    queueId: 'tool_results',
    reducedDigest: 'the digest of the [toolCallId, reminderRenderDigest] pairs of the render rows, by toolCallId',
    dedup: 'one entry per toolCallId',
  },
  stateView: {
    policy: 'turngate.state-view.v1',
    viewId: 'turn',
    viewDigest:
      'the digest of { callId, requested: [toolCallId, toolName][], results: [toolCallId, status][], uses: [toolCallId, disposition][] }, each by toolCallId',
    sourceRefs: "the turn's session refs",
  },
  decomposition: {
    policy: 'turngate.decomposition.v1',
    executionPattern: 'single',
    fanOut: 'none: one model turn, its tool calls joined before it continues',
  },
} as const);

/**
 * The CallSpec fields the default profile fills: `executionPattern` `single`, `normalizerId` the
 * normalization kind the join check writes, and each policy digest the digest of its
 * {@link DEFAULT_POLICIES} entry. `callSpec({ callId, modelRef, actionMode })` takes these for every
 * field it is not given.
 *
 * @example
 * ```ts
 * import { DEFAULT_CALL_SPEC_FIELDS } from 'turngate';
 * DEFAULT_CALL_SPEC_FIELDS.normalizerId; //=> 'premath.harness.typestate_normalized.v1'
 * DEFAULT_CALL_SPEC_FIELDS.mutationPolicyDigest.startsWith('sha256:'); //=> true
 * ```
 */
export const DEFAULT_CALL_SPEC_FIELDS = deepFreeze({
  executionPattern: 'single',
  normalizerId: NORMALIZED_KIND,
  mutationPolicyDigest: digest(DEFAULT_POLICIES.mutation),
  governancePolicyDigest: digest(DEFAULT_POLICIES.governance),
  toolRenderProtocolDigest: digest(DEFAULT_POLICIES.toolRender),
  reminderQueuePolicyDigest: digest(DEFAULT_POLICIES.reminderQueue),
  stateViewPolicyDigest: digest(DEFAULT_POLICIES.stateView),
  decompositionPolicyDigest: digest(DEFAULT_POLICIES.decomposition),
} as const);

/**
 * The default source of a turn's session and trajectory refs, used when `closeJoin` is given
 * none: `session://<sessionId>` and `trajectory://<sessionId>/<callId>`, where `sessionId` is the
 * CallSpec's (`callSpec({ ..., sessionId })`, default: the `callId`).
 *
 * Source: the Tusk harness contract §11 (`HarnessSession.sessionId`), §12 (trajectory rows).
 *
 * @param sessionId - The session the turn belongs to.
 * @param callId - The turn's `callId`.
 * @returns `sessionRefs` and `trajectoryRefs`, one ref each.
 * @example
 * ```ts
 * import { defaultRefs } from 'turngate';
 * defaultRefs('billing-agent/run-42', 'turn-3');
 * //=> { sessionRefs: ['session://billing-agent/run-42'], trajectoryRefs: ['trajectory://billing-agent/run-42/turn-3'] }
 * ```
 */
export function defaultRefs(
  sessionId: string,
  callId: string,
): { readonly sessionRefs: readonly string[]; readonly trajectoryRefs: readonly string[] } {
  return { sessionRefs: [`session://${sessionId}`], trajectoryRefs: [`trajectory://${sessionId}/${callId}`] };
}

/** What a turn holds that its context evidence is derived from. Internal. */
export interface ContextSource {
  readonly spec: NormalizedCallSpec;
  readonly calls: readonly { readonly toolCallId: string; readonly toolName: string }[];
  readonly results: readonly {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly status: 'ok' | 'error';
    readonly resultDigest?: string;
    readonly error?: { readonly errorCode: string; readonly retryable: boolean; readonly errorMessage: string };
  }[];
  readonly uses: readonly { readonly toolCallId: string; readonly disposition: string }[];
  readonly sessionRefs: readonly string[];
}

/** The context rows derived under the default profile, each only where the CallSpec uses its policy. */
export interface DerivedContext {
  readonly toolRender?: readonly {
    readonly toolCallId: string;
    readonly operatorPayloadDigest: string;
    readonly reminderRenderDigest: string;
    readonly injectionPoint: string;
    readonly policyDigest: string;
  }[];
  readonly reminderQueue?: readonly {
    readonly queueId: string;
    readonly reducedDigest: string;
    readonly policyDigest: string;
  }[];
  readonly stateViews?: readonly {
    readonly viewId: string;
    readonly viewDigest: string;
    readonly policyDigest: string;
    readonly sourceRefs: readonly string[];
  }[];
}

const byId = <T extends { readonly toolCallId: string }>(rows: readonly T[]): T[] =>
  [...rows].sort((a, b) => compareUtf8(a.toolCallId, b.toolCallId));

/** A result's two render digests under the default profile. */
interface RenderDigests {
  readonly operatorPayloadDigest: string;
  readonly reminderRenderDigest: string;
}

/** The render digests of one result (see {@link DEFAULT_POLICIES}): its payload's, and its render's. */
function renderDigestsOf(r: ContextSource['results'][number]): RenderDigests {
  const operatorPayloadDigest =
    r.status === 'ok' && r.resultDigest !== undefined
      ? r.resultDigest
      : digest({
          errorCode: r.error?.errorCode ?? '',
          retryable: r.error?.retryable ?? false,
          errorMessage: r.error?.errorMessage ?? '',
        });
  return {
    operatorPayloadDigest,
    reminderRenderDigest: digest({
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      isError: r.status !== 'ok',
      operatorPayloadDigest,
    }),
  };
}

/**
 * Derives the context evidence of a turn under the default profile's render, reminder-queue and
 * state-view policies (each only when the CallSpec's digest for it is the default one), as
 * {@link DEFAULT_POLICIES} describes. Internal: `closeJoin` uses it for what the caller does
 * not give.
 */
export function deriveContext(source: ContextSource): DerivedContext {
  const { spec } = source;
  const out: { -readonly [K in keyof DerivedContext]: DerivedContext[K] } = {};
  const rendered =
    spec.toolRenderProtocolDigest === DEFAULT_CALL_SPEC_FIELDS.toolRenderProtocolDigest ||
    spec.reminderQueuePolicyDigest === DEFAULT_CALL_SPEC_FIELDS.reminderQueuePolicyDigest;
  const renders = rendered
    ? byId(source.results).map((r) => {
        const { operatorPayloadDigest, reminderRenderDigest } = renderDigestsOf(r);
        return {
          toolCallId: r.toolCallId,
          operatorPayloadDigest,
          reminderRenderDigest,
          injectionPoint: DEFAULT_POLICIES.toolRender.injectionPoint,
          policyDigest: spec.toolRenderProtocolDigest,
        };
      })
    : [];
  if (spec.toolRenderProtocolDigest === DEFAULT_CALL_SPEC_FIELDS.toolRenderProtocolDigest) out.toolRender = renders;
  if (spec.reminderQueuePolicyDigest === DEFAULT_CALL_SPEC_FIELDS.reminderQueuePolicyDigest) {
    out.reminderQueue = [
      {
        queueId: DEFAULT_POLICIES.reminderQueue.queueId,
        reducedDigest: digest(renders.map((r) => [r.toolCallId, r.reminderRenderDigest])),
        policyDigest: spec.reminderQueuePolicyDigest,
      },
    ];
  }
  if (spec.stateViewPolicyDigest === DEFAULT_CALL_SPEC_FIELDS.stateViewPolicyDigest) {
    out.stateViews = [
      {
        viewId: DEFAULT_POLICIES.stateView.viewId,
        viewDigest: digest({
          callId: spec.callId,
          requested: byId(source.calls).map((c) => [c.toolCallId, c.toolName]),
          results: byId(source.results).map((r) => [r.toolCallId, r.status]),
          uses: byId(source.uses).map((u) => [u.toolCallId, u.disposition]),
        }),
        policyDigest: spec.stateViewPolicyDigest,
        sourceRefs: source.sessionRefs,
      },
    ];
  }
  return out;
}
