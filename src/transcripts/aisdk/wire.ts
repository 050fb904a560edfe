/**
 * The Vercel AI SDK `ModelMessage[]` wire shape (the `messages` of `generateText` /
 * `streamText`): the input types (the SDK's `ModelMessage` is assignable to them) and the
 * valibot schema the checker's reader agrees with (it accepts what the reader reads, shape
 * errors the rules report included). Unknown fields and part types are kept.
 *
 * Source: AI SDK reference, `ModelMessage`; "Tool calling" (tool execution approval).
 *
 * @module
 */
import * as v from 'valibot';
import { ownStructureOf } from '../core/wire-check.ts';

/**
 * A tool call in an assistant message; `providerExecuted: true` when the provider ran it.
 *
 * @example
 * ```ts
 * import type { AISDKToolCallPart } from 'turngate/formats';
 * const part: AISDKToolCallPart = { type: 'tool-call', toolCallId: 'call_1', toolName: 'getWeather', input: { city: 'Oslo' } };
 * ```
 */
export interface AISDKToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly providerExecuted?: boolean;
}

/**
 * A tool result (`output: { type, value }`), in a tool message (or, for a provider-executed
 * call, in the assistant message).
 *
 * @example
 * ```ts
 * import type { AISDKToolResultPart } from 'turngate/formats';
 * const part: AISDKToolResultPart = { type: 'tool-result', toolCallId: 'call_1', toolName: 'getWeather', output: { type: 'text', value: 'Snow' } };
 * ```
 */
export interface AISDKToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  /** `{ type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }` or `{ type: 'execution-denied', reason? }`. */
  readonly output: { readonly type: string; readonly value?: unknown; readonly reason?: string };
}

/**
 * A request to approve a tool call before it runs (assistant message).
 *
 * @example
 * ```ts
 * import type { AISDKToolApprovalRequestPart } from 'turngate/formats';
 * const part: AISDKToolApprovalRequestPart = { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_1' };
 * ```
 */
export interface AISDKToolApprovalRequestPart {
  readonly type: 'tool-approval-request';
  readonly approvalId: string;
  readonly toolCallId: string;
}

/**
 * The answer to an approval request (tool message).
 *
 * @example
 * ```ts
 * import type { AISDKToolApprovalResponsePart } from 'turngate/formats';
 * const part: AISDKToolApprovalResponsePart = { type: 'tool-approval-response', approvalId: 'appr_1', approved: true };
 * ```
 */
export interface AISDKToolApprovalResponsePart {
  readonly type: 'tool-approval-response';
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/**
 * Any other part (text, reasoning, image, file, ...), by its `type`.
 *
 * @example
 * ```ts
 * import type { AISDKOtherPart } from 'turngate/formats';
 * const part: AISDKOtherPart = { type: 'reasoning' };
 * ```
 */
export interface AISDKOtherPart {
  readonly type: string;
}

/**
 * One `ModelMessage`. The SDK's `ModelMessage` is assignable to it.
 *
 * @example
 * ```ts
 * import type { AISDKMessage } from 'turngate/formats';
 * const messages: AISDKMessage[] = [
 *   { role: 'user', content: 'Weather in Oslo?' },
 *   { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'getWeather', input: { city: 'Oslo' } }] },
 *   { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'getWeather', output: { type: 'text', value: 'Snow' } }] },
 * ];
 * ```
 */
export type AISDKMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly AISDKOtherPart[] }
  | {
      readonly role: 'assistant';
      readonly content:
        | string
        | readonly (AISDKToolCallPart | AISDKToolResultPart | AISDKToolApprovalRequestPart | AISDKOtherPart)[];
    }
  | { readonly role: 'tool'; readonly content: readonly (AISDKToolResultPart | AISDKToolApprovalResponsePart)[] };

const CHECKED = new Set(['tool-call', 'tool-result', 'tool-approval-request', 'tool-approval-response']);
const Other = v.looseObject({
  type: v.pipe(
    v.string(),
    v.check((type) => !CHECKED.has(type)),
  ),
});
const ToolCall = v.looseObject({
  type: v.literal('tool-call'),
  toolCallId: v.string(),
  toolName: v.string(),
  providerExecuted: v.optional(v.boolean()),
});
const ToolResult = v.looseObject({ type: v.literal('tool-result'), toolCallId: v.string() });
const ApprovalRequest = v.looseObject({
  type: v.literal('tool-approval-request'),
  approvalId: v.string(),
  toolCallId: v.string(),
});
const ApprovalResponse = v.looseObject({
  type: v.literal('tool-approval-response'),
  approvalId: v.string(),
  approved: v.boolean(),
});
const Content = v.union([
  v.string(),
  v.array(v.variant('type', [ToolCall, ToolResult, ApprovalRequest, ApprovalResponse, Other])),
]);

/**
 * One `ModelMessage` as the check reads it: a known role, content that is a string or a list of
 * typed parts, and the ids a tool part is paired by. What the SDK refuses beyond that (a part its
 * role does not hold, a tool input that is no object, an AI SDK 4 `args` or `result`, an output
 * that is no `ToolResultOutput`) is readable: the check reports it under its rule (`aisdk.*`),
 * so the schema accepts it too. The message types above stay the SDK's strict shape.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AISDKMessageSchema } from 'turngate/formats';
 * v.is(AISDKMessageSchema, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'text', value: 'ok' } }] }); //=> true
 * v.is(AISDKMessageSchema, { role: 'tool', content: [{ type: 'tool-result', output: { type: 'text', value: 'ok' } }] }); //=> false
 * ```
 */
export const AISDKMessageSchema = v.pipe(
  v.looseObject({ role: v.picklist(['system', 'user', 'assistant', 'tool']), content: Content }),
  ownStructureOf('aisdk'),
);

/**
 * The `messages` of a call.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { AISDKMessagesSchema } from 'turngate/formats';
 * v.is(AISDKMessagesSchema, [{ role: 'user', content: 'Hello' }]); //=> true
 * ```
 */
export const AISDKMessagesSchema = v.array(AISDKMessageSchema);
