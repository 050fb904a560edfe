/** fast-check generators of join-check inputs over a small id pool, so joins close and break. */
import fc from 'fast-check';

export const callSpec = {
  callId: 'turn-1',
  modelRef: 'model/1',
  actionMode: 'code',
  executionPattern: 'parallel',
  normalizerId: 'nf.v1',
  mutationPolicyDigest: 'pol.mut',
  governancePolicyDigest: 'pol.gov',
  toolRenderProtocolDigest: 'pol.render',
  reminderQueuePolicyDigest: 'pol.queue',
  stateViewPolicyDigest: 'pol.view',
  decompositionPolicyDigest: 'pol.decomp',
} as const;

const POOL = ['tc-a', 'tc-b', 'tc-c', 'tc-d'];
const ids = fc.subarray(POOL);
/** Usually the same ids as `base` (so joins close often), sometimes any subset of the pool. */
const usually = (base: string[]) =>
  fc.oneof({ arbitrary: fc.constant(base), weight: 3 }, { arbitrary: ids, weight: 1 });
const policy = (good: string) => fc.constantFrom(good, good, good, 'pol.other');

export const resultRow = (id: string) =>
  fc.oneof(
    fc.record({ toolCallId: fc.constant(id), status: fc.constant('ok'), resultDigest: fc.constant(`sha256:${id}`) }),
    fc.record({ toolCallId: fc.constant(id), payload: fc.jsonValue({ maxDepth: 2 }) }),
    fc.record({
      toolCallId: fc.constant(id),
      status: fc.constant('error'),
      errorCode: fc.constantFrom('timeout', ' '),
      retryable: fc.boolean(),
      errorMessage: fc.constantFrom('boom', ''),
    }),
  );

/** Arbitrary evidence; with `okResultsOnly` every result is an `ok` row (no error envelope). */
export function evidence(okResultsOnly = false) {
  return fc
    .record({ requested: ids })
    .chain(({ requested }) => fc.record({ requested: fc.constant(requested), resulted: usually(requested) }))
    .chain(({ requested, resulted }) =>
      fc.record({
        requested: fc.constant(requested),
        resulted: fc.constant(resulted),
        used: usually(resulted),
        rendered: usually(resulted),
        dispositions: fc.array(
          fc.constantFrom('consumed', 'observed', 'discarded', 'observed_only', 'retry_scheduled'),
          {
            minLength: 4,
            maxLength: 4,
          },
        ),
        stopReason: fc.constantFrom('tool_use', 'end_turn', 'pause_turn', 'max_tokens', 'refusal'),
        continuationAllowed: fc.boolean(),
        renderPolicy: policy('pol.render'),
        queues: fc.array(
          fc.record({
            queueId: fc.constantFrom('q1', 'q2'),
            reducedDigest: fc.constant('sha256:q'),
            policyDigest: policy('pol.queue'),
          }),
          { minLength: 0, maxLength: 2 },
        ),
        views: fc.array(
          fc.record({
            viewId: fc.constantFrom('v1', 'v2'),
            viewDigest: fc.constant('sha256:v'),
            policyDigest: policy('pol.view'),
          }),
          { maxLength: 2 },
        ),
        sessionRefs: fc.array(fc.constantFrom('s://1', ' s://2 ', ''), { maxLength: 3 }),
      }),
    )
    .chain((shape) =>
      fc
        .tuple(
          ...shape.resulted.map((id) =>
            okResultsOnly ? fc.constant({ toolCallId: id, status: 'ok', resultDigest: `sha256:${id}` }) : resultRow(id),
          ),
        )
        .map((results) => ({
          callSpec,
          toolRequests: shape.requested.map((id) => ({ toolCallId: id, toolName: `tool.${id}` })),
          toolResults: results,
          toolUse: shape.used.map((id, i) => ({ toolCallId: id, disposition: shape.dispositions[i] as string })),
          protocolState: { stopReason: shape.stopReason, continuationAllowed: shape.continuationAllowed },
          toolRender: shape.rendered.map((id) => ({
            toolCallId: id,
            operatorPayloadDigest: `sha256:op-${id}`,
            reminderRenderDigest: `sha256:rem-${id}`,
            injectionPoint: 'tool_response',
            policyDigest: shape.renderPolicy,
          })),
          reminderQueue: dedupe(shape.queues, 'queueId'),
          stateViews: dedupe(shape.views, 'viewId'),
          sessionRefs: shape.sessionRefs,
        })),
    );
}

function dedupe<T extends Record<K, string>, K extends string>(rows: T[], key: K): T[] {
  const seen = new Map<string, T>();
  for (const row of rows) if (!seen.has(row[key])) seen.set(row[key], row);
  return [...seen.values()];
}

/** Evidence with each row list in a random order. */
export function shuffled<T extends Record<string, unknown>>(value: T): fc.Arbitrary<T> {
  const lists = Object.entries(value).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
  return fc
    .tuple(...lists.map(([, list]) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })))
    .map((orders) => {
      const copy: Record<string, unknown> = { ...value };
      lists.forEach(([key], i) => {
        copy[key] = orders[i];
      });
      return copy as T;
    });
}
