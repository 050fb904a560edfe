import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { closedTurn, continuing, policy, specFor, Tools } from '../../test/turn-fixtures.ts';
import {
  admitMutation,
  closeJoin,
  defineTools,
  EffectAlreadyRecorded,
  effectKey,
  MemoryEffectLedger,
  performMutation,
  performMutationTool,
  requestTools,
  settle,
  settleMutations,
  turn,
  TypestateError,
  useAll,
  type EffectLedger,
  type JoinClosed,
  type ToolUse,
} from '../index.ts';
import type { EffectEntry } from '../types.ts';

const bound = { id: '7', status: 'closed' };

/** A ToolUse of one pending update_issue call (tc-9), the way a loop over model output builds it. */
async function pendingUse(): Promise<ToolUse<Tools>> {
  const requests = requestTools(specFor('code'), Tools, [
    { toolCallId: 'tc-9', toolName: 'update_issue', input: bound },
  ]);
  if (!requests.ok) throw new Error(JSON.stringify(requests.failures));
  const results = await settle(requests.value, {
    read_file: async () => ({ text: '' }),
    search_web: async () => ({ hits: 0 }),
    exec_only: async () => ({}),
  });
  if (!results.ok) throw new Error(JSON.stringify(results.failures));
  const use = useAll(results.value, () => ({ disposition: 'retry_scheduled', reasonCode: 'mutation_pending' }));
  if (!use.ok) throw new Error(JSON.stringify(use.failures));
  return use.value;
}

function close(use: ToolUse<Tools>): JoinClosed<Tools> {
  const closed = closeJoin(use, continuing(['tc-9']));
  if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
  return closed.value;
}

const answerOf = (closed: JoinClosed<Tools>, id: string) => closed.results.find((r) => r.toolCallId === id);

describe('the gate spends an intent under its turn, not under the object that admitted it', () => {
  it('closing the same ToolUse again gives no fresh, unspent turn: the call runs once, both closures answer it the same', async () => {
    const use = await pendingUse();
    const update = vi.fn(async () => ({ ok: true }));
    const first = await settleMutations(close(use), { update_issue: update }, policy);
    const second = await settleMutations(close(use), { update_issue: update }, policy);
    const third = await settleMutations(close(use), { update_issue: update }, policy);
    expect(update).toHaveBeenCalledTimes(1);
    for (const final of [first, second, third]) {
      if (!final.ok) throw new Error(JSON.stringify(final.failures));
      expect(answerOf(final.value, 'tc-9')).toMatchObject({ status: 'ok', output: { ok: true } });
    }
  });

  it('admitting a re-closed turn finds every intent spent', async () => {
    const use = await pendingUse();
    const ready = admitMutation(close(use), policy);
    if (!ready.ok) throw new Error(JSON.stringify(ready.failures));
    await performMutation(ready.value, { toolCallId: 'tc-9', input: bound }, () => 'done');
    const again = admitMutation(close(use), policy);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.failures[0]?.detail).toContain('already run');
  });
});

describe('the effect ledger', () => {
  it('the in-memory ledger resumes a started claim for its own claimant token only', () => {
    const ledger = new MemoryEffectLedger();
    const entry = {
      key: 'k',
      toolCallId: 'tc-1',
      toolName: 'refund',
      inputDigest: 'sha256:0',
      joinSetDigest: 'sha256:1',
    };
    expect(ledger.begin(entry, 'claim-1')).toEqual({ claimed: true });
    expect(ledger.begin(entry, 'claim-1')).toEqual({ claimed: true });
    expect(ledger.begin(entry, 'claim-2')).toEqual({ claimed: false, record: { ...entry, state: 'started' } });
    expect(ledger.begin(entry)).toEqual({ claimed: false, record: { ...entry, state: 'started' } });
    ledger.finish('k', { state: 'completed', output: 7 });
    expect(ledger.begin(entry, 'claim-1')).toEqual({
      claimed: false,
      record: { ...entry, state: 'completed', output: 7 },
    });
  });

  it('runs a replayed reply’s mutation once and answers the replay with the recorded output', async () => {
    const ledger = new MemoryEffectLedger();
    const send = vi.fn(async () => ({ ok: true }));
    const first = await settleMutations(closedTurn(), { update_issue: send }, policy, { ledger });
    const replayed = await settleMutations(closedTurn(), { update_issue: send }, policy, { ledger });
    expect(send).toHaveBeenCalledTimes(1);
    if (!first.ok || !replayed.ok) throw new Error('not closed');
    expect(first.value.mutations.map((m) => m.outcome)).toEqual(['performed']);
    expect(replayed.value.mutations.map((m) => m.outcome)).toEqual(['replayed']);
    expect(answerOf(replayed.value, 'tc-3')).toEqual(answerOf(first.value, 'tc-3'));
    const record = replayed.value.mutations[0];
    expect(record?.outcome === 'replayed' && record.record.state).toBe('completed');
    expect(ledger.size).toBe(1);
  });

  it('without a ledger a replay is another turn: once per turn is all the gate alone can promise', async () => {
    const send = vi.fn(async () => ({ ok: true }));
    await settleMutations(closedTurn(), { update_issue: send }, policy);
    await settleMutations(closedTurn(), { update_issue: send }, policy);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('runs concurrent replays once', async () => {
    const ledger = new MemoryEffectLedger();
    let runs = 0;
    const send = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { ok: true };
    };
    const finals = await Promise.all(
      Array.from({ length: 8 }, () => settleMutations(closedTurn(), { update_issue: send }, policy, { ledger })),
    );
    expect(runs).toBe(1);
    const outcomes = finals.map((f) => (f.ok ? f.value.mutations[0]?.outcome : 'failed'));
    expect(outcomes.filter((o) => o === 'performed')).toHaveLength(1);
    // The others met the effect started (in flight), not finished: its outcome is unknown to them.
    for (const f of finals) {
      if (!f.ok) throw new Error(JSON.stringify(f.failures));
      const answer = answerOf(f.value, 'tc-3');
      if (f.value.mutations[0]?.outcome === 'performed') expect(answer?.status).toBe('ok');
      else expect(answer).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown' } });
    }
  });

  it('answers a replay of a failed effect with the recorded error, without running it', async () => {
    const ledger = new MemoryEffectLedger();
    const send = vi.fn(async () => {
      throw Object.assign(new Error('SMTP 554 rejected'), { code: 'smtp_rejected' });
    });
    const first = await settleMutations(closedTurn(), { update_issue: send }, policy, { ledger });
    const replayed = await settleMutations(closedTurn(), { update_issue: send }, policy, { ledger });
    expect(send).toHaveBeenCalledTimes(1);
    if (!first.ok || !replayed.ok) throw new Error('not closed');
    expect(answerOf(replayed.value, 'tc-3')).toMatchObject({
      status: 'error',
      error: { errorCode: 'smtp_rejected', errorMessage: 'SMTP 554 rejected' },
    });
  });

  it('answers an effect started and never finished "outcome unknown; check before retrying", never "failed"', async () => {
    const ledger = new MemoryEffectLedger();
    const closed = closedTurn();
    const intent = closed.intents.find((i) => i.kind === 'tool_call');
    if (intent === undefined) throw new Error('no intent');
    // A process claimed it and died before finishing.
    await ledger.begin({
      key: effectKey(intent, 'update_issue'),
      toolCallId: 'tc-3',
      toolName: 'update_issue',
      inputDigest: intent.inputDigest,
      joinSetDigest: 'sha256:earlier',
    });
    const send = vi.fn(async () => ({ ok: true }));
    const final = await settleMutations(closed, { update_issue: send }, policy, { ledger });
    expect(send).not.toHaveBeenCalled();
    if (!final.ok) throw new Error(JSON.stringify(final.failures));
    const answer = answerOf(final.value, 'tc-3');
    expect(answer).toMatchObject({ status: 'error', error: { errorCode: 'effect_outcome_unknown', retryable: false } });
    expect(answer?.status === 'error' && answer.error.errorMessage).toMatch(
      /outcome is unknown; check before retrying/,
    );
    expect(answer?.status === 'error' && answer.error.errorMessage).not.toMatch(/failed/);
  });

  it('performMutation returns a completed record as the value and throws EffectAlreadyRecorded for the rest', async () => {
    const ledger = new MemoryEffectLedger();
    const admit = () => {
      const r = admitMutation(closedTurn(), policy, { ledger });
      if (!r.ok) throw new Error(JSON.stringify(r.failures));
      return r.value;
    };
    const effect = vi.fn(async () => ({ ok: true }));
    const ran = await performMutation(admit(), { toolCallId: 'tc-3', input: bound }, effect);
    const again = await performMutation(admit(), { toolCallId: 'tc-3', input: bound }, effect);
    expect(effect).toHaveBeenCalledTimes(1);
    expect(ran.replayed).toBeUndefined();
    expect(again.value).toEqual({ ok: true });
    expect(again.replayed?.state).toBe('completed');

    const failing = new MemoryEffectLedger();
    const r = admitMutation(closedTurn(), policy, { ledger: failing });
    if (!r.ok) throw new Error('not admitted');
    await expect(
      performMutation(r.value, { toolCallId: 'tc-3', input: bound }, () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    const s = admitMutation(closedTurn(), policy, { ledger: failing });
    if (!s.ok) throw new Error('not admitted');
    const error = await performMutation(s.value, { toolCallId: 'tc-3', input: bound }, effect).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EffectAlreadyRecorded);
    expect(error instanceof EffectAlreadyRecorded && error.record.state).toBe('failed');
    expect(effect).toHaveBeenCalledTimes(1);
  });

  it('keys by the user’s idempotency key when given', async () => {
    const ledger = new MemoryEffectLedger();
    const send = vi.fn(async () => ({ ok: true }));
    const idempotencyKey = () => 'issue-7-close';
    await settleMutations(closedTurn(), { update_issue: send }, policy, { ledger, idempotencyKey });
    expect(ledger.read('issue-7-close')?.state).toBe('completed');
  });

  it('refuses a record of another tool under the intent’s key: the TypestateError carries the failure with the call’s id', async () => {
    const ledger = new MemoryEffectLedger();
    const other = {
      toolCallId: 'tc-0',
      toolName: 'send_email',
      inputDigest: 'sha256:other',
      joinSetDigest: 'sha256:j',
    };
    await ledger.begin({ key: 'issue-7-close', ...other });
    const r = admitMutation(closedTurn(), policy, { ledger, idempotencyKey: () => 'issue-7-close' });
    if (!r.ok) throw new Error(JSON.stringify(r.failures));
    const effect = vi.fn(async () => ({ ok: true }));
    const error = await performMutation(r.value, { toolCallId: 'tc-3', input: bound }, effect).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypestateError);
    const refused = error as TypestateError;
    expect([refused.code, refused.failures.map((f) => [f.class, f.ids])]).toEqual([
      'record_mismatch',
      [['effect.record_mismatch', ['tc-3']]],
    ]);
    expect(refused.failures[0]?.detail).toBe(refused.message.slice(refused.message.indexOf(': ') + 2));
    expect(effect).not.toHaveBeenCalled();
  });

  it('claims before the effect and records its end in a ledger of the user’s own', async () => {
    const calls: string[] = [];
    const records = new Map<string, unknown>();
    const ledger: EffectLedger = {
      async begin(entry: EffectEntry) {
        calls.push(`begin ${entry.toolName}`);
        records.set(entry.key, entry);
        return { claimed: true };
      },
      async finish(key, end) {
        calls.push(`finish ${end.state}`);
        records.set(key, end);
      },
      read: () => undefined,
    };
    await settleMutations(
      closedTurn(),
      {
        update_issue: async () => {
          calls.push('effect');
          return { ok: true };
        },
      },
      policy,
      { ledger },
    );
    expect(calls).toEqual(['begin update_issue', 'effect', 'finish completed']);
  });

  it('refuses a blank idempotency key before the effect, and runs nothing when the ledger cannot claim', async () => {
    const effect = vi.fn(() => 'ran');
    const blank = admitMutation(closedTurn(), policy, { ledger: new MemoryEffectLedger(), idempotencyKey: () => ' ' });
    if (!blank.ok) throw new Error('not admitted');
    await expect(performMutation(blank.value, { toolCallId: 'tc-3', input: bound }, effect)).rejects.toThrow(
      'options.idempotencyKey: expected a non-blank string for tool call "tc-3", got string',
    );
    const down: EffectLedger = {
      begin: () => Promise.reject(new Error('database is down')),
      finish: () => undefined,
      read: () => undefined,
    };
    const update = vi.fn(async () => ({ ok: true }));
    const final = await settleMutations(closedTurn(), { update_issue: update }, policy, { ledger: down });
    expect(update).not.toHaveBeenCalled();
    if (!final.ok) throw new Error(JSON.stringify(final.failures));
    expect(final.value.mutations.map((m) => m.outcome)).toEqual(['not_performed']);
    expect(answerOf(final.value, 'tc-3')).toMatchObject({
      status: 'error',
      error: { errorCode: 'mutation_not_performed' },
    });
  });

  it('refuses options that are not a ledger, naming the field', () => {
    // biome-ignore lint/plugin: an object that is not a ledger, as untyped code would pass it
    expect(() => admitMutation(closedTurn(), policy, { ledger: {} as unknown as EffectLedger })).toThrow(
      'admitMutation: options.ledger.begin: expected a function (an EffectLedger)',
    );
  });
});

describe('a mutation input built from a consumed result', () => {
  class Mailer extends defineTools({
    read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
    send_email: { input: v.object({ to: v.string() }), output: v.object({ sent: v.boolean() }), mutation: true },
    delete_repo: { input: v.object({ repo: v.string() }), output: v.object({ deleted: v.boolean() }), mutation: true },
  }) {}
  const admitted = () => {
    const closed = turn(specFor('code'), Mailer)
      .request('tc-1', 'read_file', { path: 'contacts.md' })
      .result('tc-1', { status: 'ok', output: { text: 'ops@example.com' } })
      .use('tc-1', 'consumed', {
        evidence: { mutationInputRef: 'mutation://mail/1', mutationInput: { to: 'ops@example.com' } },
      })
      .close(continuing(['tc-1']));
    if (!closed.ok) throw new Error(JSON.stringify(closed.failures));
    const ready = admitMutation(closed.value, policy);
    if (!ready.ok) throw new Error(JSON.stringify(ready.failures));
    return ready.value;
  };
  const target = { mutationInputRef: 'mutation://mail/1', input: { to: 'ops@example.com' } } as const;

  it('runs only through a tool whose input schema it passes', async () => {
    const ready = admitted();
    const drop = vi.fn(async () => ({ deleted: true }));
    // biome-ignore lint/plugin: the types refuse this call (the input is not delete_repo's); untyped code can still make it
    const untyped: (r: unknown, call: object, run: () => unknown) => Promise<unknown> = performMutationTool as never;
    const error = await untyped(ready, { ...target, toolName: 'delete_repo' }, drop).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypestateError);
    expect(error instanceof TypestateError && error.code).toBe('input_mismatch');
    expect(error instanceof TypestateError && error.failures.map((f) => f.class)).toEqual([
      'mutation.use_evidence_missing',
    ]);
    expect(String(error)).toContain("does not match delete_repo's input schema");
    expect(drop).not.toHaveBeenCalled();
    // Refused before it was spent: the right tool still runs it, once.
    const send = vi.fn(async () => ({ sent: true }));
    await performMutationTool(ready, { ...target, toolName: 'send_email' }, send);
    await expect(performMutationTool(ready, { ...target, toolName: 'send_email' }, send)).rejects.toThrow('spent');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
