/**
 * The reply a tool loop records before any effect: a reply with a mutating call is written to the
 * effect ledger under its turn's key (the session and the history it answers), so a loop
 * restarted after a crash answers the recorded reply, and a regenerated reply for the same turn
 * is recognised instead of run again. Internal.
 *
 * @module
 */
import { digest, type JsonValue } from '../../canonical/index.ts';
import type { EffectRecord } from '../../typestate/index.ts';
import { readClaim } from '../../typestate/internal.ts';
import { type ReadReply, type RecordedReply, ToolLoopError } from './codec.ts';
import type { LoopContext } from './loop-types.ts';

/** The `toolName` of a recorded reply in the effect ledger (never a tool's: tool names have no `:`). */
export const REPLY_RECORD = 'turngate:reply';

/** The canonical digest of a list of provider messages (JSON data: `undefined` fields dropped). */
export function messagesDigest(messages: readonly unknown[]): string {
  return digest(JSON.parse(JSON.stringify(messages)) as JsonValue);
}

/** The ledger key of the reply recorded for the turn that `history` ends at, in `scope`. */
export function turnKey(scope: string, history: readonly unknown[]): string {
  return digest({ kind: REPLY_RECORD, session: scope, history: messagesDigest(history) });
}

/** A read reply as JSON data, for the ledger. */
export function recordOf(read: ReadReply<unknown>): RecordedReply {
  return {
    kind: 'turngate.recorded-reply',
    messages: JSON.parse(JSON.stringify(read.messages)) as JsonValue[],
    stopReason: read.stopReason ?? null,
    id: read.id ?? null,
    model: read.model ?? null,
    ...(read.positionalIds === true ? { positionalIds: true } : {}),
  };
}

/** Whether `value` is a recorded reply (`answer` takes one in place of the SDK's). */
export function isRecordedReply(value: unknown): value is RecordedReply {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.hasOwn(value, 'kind') &&
    (value as { kind: unknown }).kind === 'turngate.recorded-reply' &&
    Array.isArray((value as { messages: unknown }).messages)
  );
}

/** The read reply a recorded one stands for. */
export function revive(recorded: RecordedReply): ReadReply<unknown> {
  return {
    messages: [...recorded.messages],
    stopReason: recorded.stopReason ?? undefined,
    id: recorded.id ?? undefined,
    model: recorded.model ?? undefined,
    ...(recorded.positionalIds === true ? { positionalIds: true } : {}),
  };
}

/**
 * Records `read` as the reply of the turn `history` ends at, before any effect; or finds the
 * reply recorded for it earlier. Returns the reply to answer and whether it is the recorded one.
 */
export async function writeAhead(
  ctx: LoopContext,
  history: readonly unknown[],
  read: ReadReply<unknown>,
): Promise<{ readonly read: ReadReply<unknown>; readonly resumed: boolean }> {
  const key = turnKey(ctx.scope, history);
  const record = recordOf(read);
  const inputDigest = digest(record);
  const begun = readClaim(
    await ctx.ledger.begin({
      key,
      toolCallId: read.id ?? '',
      toolName: REPLY_RECORD,
      inputDigest,
      joinSetDigest: inputDigest,
    }),
  );
  if (begun?.claimed === true) {
    await ctx.ledger.finish(key, { state: 'completed', output: record });
    return { read, resumed: false };
  }
  const existing: EffectRecord | undefined = begun?.record;
  if (existing?.toolName !== REPLY_RECORD) {
    const detail = `the effect ledger answered the record of this turn's reply with ${existing === undefined ? 'neither a claim nor a record' : `a record of ${JSON.stringify(existing.toolName)}`}: nothing ran`;
    throw new ToolLoopError(
      `${ctx.codec.format}: ${detail}`,
      [{ class: 'effect.record_mismatch', detail: `${detail[0]?.toUpperCase()}${detail.slice(1)}.` }],
      'reply_refused',
    );
  }
  if (existing.inputDigest === inputDigest) return { read, resumed: false };
  if (existing.state === 'completed' && isRecordedReply(existing.output)) {
    return { read: revive(existing.output), resumed: true };
  }
  if (existing.state === 'started') {
    throw new ToolLoopError(
      `${ctx.codec.format}: another process is recording this turn's reply; nothing ran, retry shortly`,
      [],
      'turn_in_progress',
    );
  }
  // Its recording never finished (the process ended before any effect): answer this reply.
  return { read, resumed: false };
}
