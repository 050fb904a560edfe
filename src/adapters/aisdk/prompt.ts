/**
 * The AI SDK's language-model prompt (`LanguageModelV4Prompt`, what a middleware's
 * `transformParams` sees) read as the `aisdk` format's `ModelMessage[]`. Internal.
 *
 * The prompt is what the SDK made of the caller's `ModelMessage`s: instructions as leading
 * system messages, user text as text parts, consecutive tool messages merged. The `aisdk`
 * reader reads all of that as it is, with one exception: the SDK removes every
 * `tool-approval-request` part and keeps a `tool-approval-response` only for a
 * provider-executed call, so such a response answers a request the prompt no longer holds (the
 * reader would fail it as `aisdk.approval_response_unknown`). Those responses are set aside
 * before the check (the provider, which issued the request, checks them) and put back after a
 * repair. Source: ai 7, `convertToLanguageModelPrompt` (src/prompt/convert-to-language-model-prompt.ts).
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../../internal/object.ts';
import type { TranscriptFailure } from '../../transcripts/index.ts';

/** A part set aside: its index in its tool message's `content`, the part, and the kept part it stood before. */
interface SetAsidePart {
  readonly slot: number;
  readonly part: unknown;
  readonly before: unknown;
}

/** A prompt as the `aisdk` reader reads it, and what was set aside to get there. */
export interface CheckedPrompt {
  /** The prompt itself when nothing was set aside; else a copy whose tool messages lack those parts. */
  readonly messages: readonly unknown[];
  /** By message index: the provider-executed approval responses set aside, in order. */
  readonly setAside: ReadonlyMap<number, readonly SetAsidePart[]>;
}

const isApprovalResponse = (part: unknown): boolean => isJsonObject(part) && part['type'] === 'tool-approval-response';

/**
 * The prompt as the `aisdk` reader reads it: the same array when no tool message holds a
 * `tool-approval-response` (no copy); otherwise a copy where each such tool message lacks them,
 * listed in `setAside`. Values that are not messages are left for the reader to report.
 */
export function promptForCheck(prompt: readonly unknown[]): CheckedPrompt {
  let messages: unknown[] | undefined;
  const setAside = new Map<number, SetAsidePart[]>();
  for (let i = 0; i < prompt.length; i++) {
    const message = prompt[i];
    if (!isJsonObject(message) || message['role'] !== 'tool') continue;
    const content = message['content'];
    if (!Array.isArray(content) || !content.some(isApprovalResponse)) continue;
    const kept: unknown[] = [];
    const aside: SetAsidePart[] = [];
    content.forEach((part: unknown, slot) => {
      if (!isApprovalResponse(part)) kept.push(part);
      else aside.push({ slot, part, before: content.slice(slot + 1).find((next) => !isApprovalResponse(next)) });
    });
    messages ??= [...prompt];
    messages[i] = { ...message, content: kept };
    setAside.set(i, aside);
  }
  return { messages: messages ?? prompt, setAside };
}

/** The index in the prompt of part `slot` of a tool message checked without `aside`. */
function promptSlot(slot: number, aside: readonly SetAsidePart[]): number {
  let at = slot;
  for (const part of aside) if (part.slot <= at) at++;
  return at;
}

const PART_PATH = /^messages\[(\d+)\]\.content\[(\d+)\]/;

/**
 * A failure found in `checked.messages`, with its path (`at`, and the path `detail` starts
 * with) into the prompt: a part after a set-aside response has a higher index in the prompt.
 */
export function promptFailure(failure: TranscriptFailure<'aisdk'>, checked: CheckedPrompt): TranscriptFailure<'aisdk'> {
  const aside = checked.setAside.get(failure.messageIndex);
  const match = aside === undefined ? null : PART_PATH.exec(failure.at);
  if (aside === undefined || match === null) return failure;
  const path = `messages[${match[1]}].content[${promptSlot(Number(match[2]), aside)}]`;
  const at = path + failure.at.slice(match[0].length);
  const detail = failure.detail.startsWith(failure.at) ? at + failure.detail.slice(failure.at.length) : failure.detail;
  return { ...failure, at, detail };
}

/** Marks a message copy with its index in the checked prompt (repair keeps own symbol keys on the copies it edits). */
const SOURCE = Symbol('turngate.promptIndex');

/** `checked.messages` ready for repair: when parts were set aside, copies that carry their index. */
export function forRepair(checked: CheckedPrompt): readonly unknown[] {
  if (checked.setAside.size === 0) return checked.messages;
  return checked.messages.map((message, i) => ({ ...(message as JsonObject), [SOURCE]: i }));
}

/**
 * The repaired messages as a prompt: each set-aside response put back in its tool message
 * right before the part it stood before (at the end when the repair removed or renamed that
 * part); a tool message the repair emptied comes back with the responses alone, right after
 * what precedes it. The marks are removed.
 */
export function fromRepair(
  repaired: readonly unknown[],
  checked: CheckedPrompt,
  prompt: readonly unknown[],
): unknown[] {
  if (checked.setAside.size === 0) return [...repaired];
  const out: unknown[] = [];
  const restore = (index: number, content: readonly unknown[]): unknown[] => {
    const aside = checked.setAside.get(index) ?? [];
    const placed = new Set<SetAsidePart>();
    const parts: unknown[] = [];
    for (const part of content) {
      for (const entry of aside)
        if (entry.before === part && !placed.has(entry)) {
          placed.add(entry);
          parts.push(entry.part);
        }
      parts.push(part);
    }
    for (const entry of aside) if (!placed.has(entry)) parts.push(entry.part);
    return parts;
  };
  // Set-aside messages the repair removed go right after the last kept message from before them.
  const missing = [...checked.setAside.keys()].filter(
    (index) => !repaired.some((message) => (message as JsonObject & { [SOURCE]?: number })[SOURCE] === index),
  );
  const putMissing = (before: number) => {
    while (missing.length > 0 && (missing[0] as number) < before) {
      const index = missing.shift() as number;
      out.push({ ...(prompt[index] as JsonObject), content: restore(index, []) });
    }
  };
  for (const value of repaired) {
    const { [SOURCE]: source, ...message } = value as JsonObject & { [SOURCE]?: number };
    if (source !== undefined) putMissing(source);
    if (source !== undefined && checked.setAside.has(source))
      out.push({ ...message, content: restore(source, message['content'] as readonly unknown[]) });
    else out.push(source === undefined ? value : message);
  }
  putMissing(Number.POSITIVE_INFINITY);
  return out;
}
