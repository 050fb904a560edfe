import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  callSpec,
  closeJoin,
  defineTools,
  recordResults,
  recordUse,
  requestTools,
  settle,
  settleMutations,
  useAll,
  type JoinClosed,
  type ToolResult,
} from '../index.ts';
import { joinCheck, renderJoinCheckJson } from '../join-check.ts';

class Tools extends defineTools({
  read: { input: v.object({ key: v.string() }), output: v.unknown() },
  write: { input: v.object({ key: v.string() }), output: v.unknown(), mutation: true },
}) {}

/** The turn's evidence as a caller would hand it to the join check: every ok result with its output as the payload. */
function wholeEvidence(closed: JoinClosed<Tools>) {
  const n = closed.normalized;
  const payloadRow = (r: ToolResult<Tools>) =>
    r.status === 'ok'
      ? { toolCallId: r.toolCallId, status: 'ok', payload: r.output }
      : { toolCallId: r.toolCallId, status: 'error', ...r.error };
  return {
    evidence: {
      callSpec: n.callSpec,
      toolRequests: n.toolRequests ?? [],
      toolResults: closed.results.map(payloadRow),
      toolUse: n.toolUse ?? [],
      protocolState: n.protocolState,
      toolRender: n.toolRender ?? [],
      reminderQueue: n.reminderQueue ?? [],
      stateViews: n.stateViews ?? [],
      sessionRefs: n.sessionRefs ?? [],
      trajectoryRefs: n.trajectoryRefs ?? [],
    },
  };
}

const spec = callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'code' });

describe('a turn digested once: transitions carry the result digests they took', () => {
  it('closes with the report the join check gives the whole turn, payloads included, before and after its mutations', async () => {
    if (!spec.ok) throw new Error('setup');
    const call = fc.record({
      tool: fc.constantFrom('read', 'write'),
      // Not null: an ok result whose output is null has a blank digest, which the default profile's
      // render row refuses (closeJoin fails the turn, before this change as after).
      output: fc.jsonValue({ maxDepth: 3 }).filter((output) => output !== null),
      fails: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 6 }), async (calls) => {
        const requested = requestTools(
          spec.value,
          Tools,
          calls.map((c, i) => ({ toolCallId: `call_${i}`, toolName: c.tool, input: { key: String(i) } })),
        );
        if (!requested.ok) throw new Error('requestTools refused');
        const outputOf = (key: string) => {
          const c = calls[Number(key)];
          if (c?.fails) throw Object.assign(new Error(`call ${key} failed`), { errorCode: 'boom' });
          return c?.output;
        };
        const results = await settle(requested.value, { read: ({ key }) => outputOf(key) });
        if (!results.ok) throw new Error('settle refused');
        const use = useAll(results.value, () => 'observed');
        if (!use.ok) throw new Error('useAll refused');
        const closed = closeJoin(use.value);
        if (!closed.ok) throw new Error('closeJoin refused');
        const final = await settleMutations(closed.value, { write: ({ key }) => outputOf(key) });
        if (!final.ok) throw new Error('settleMutations refused');
        for (const turn of [closed.value, final.value]) {
          const whole = joinCheck(wholeEvidence(turn));
          if (!whole.ok) throw new Error('the whole turn is not join-check input');
          expect(renderJoinCheckJson(turn.report)).toBe(renderJoinCheckJson(whole.value));
        }
        expect(final.value.pendingMutations).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the stage failures: an orphan result and a use without a result are refused by their class', () => {
    if (!spec.ok) throw new Error('setup');
    const requested = requestTools(spec.value, Tools, [{ toolCallId: 'a', toolName: 'read', input: { key: 'a' } }]);
    if (!requested.ok) throw new Error('setup');
    const orphan = recordResults(requested.value, [
      { toolCallId: 'a', status: 'ok', output: 1 },
      { toolCallId: 'b', status: 'ok', output: 2 },
    ]);
    expect(orphan.ok ? [] : orphan.failures.map((f) => [f.class, f.ids])).toEqual([['tool.result_orphan', ['b']]]);
    const results = recordResults(requested.value, [{ toolCallId: 'a', status: 'ok', output: { n: 1 } }]);
    if (!results.ok) throw new Error('setup');
    const unknown = recordUse(results.value, [
      { toolCallId: 'a', disposition: 'observed' },
      { toolCallId: 'z', disposition: 'observed' },
    ]);
    expect(unknown.ok ? [] : unknown.failures.map((f) => [f.class, f.ids])).toEqual([
      ['tool.use_without_result', ['z']],
    ]);
  });
});
