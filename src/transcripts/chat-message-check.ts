/**
 * Checking a value as a `ChatMessage` (one-line diagnostics naming the field) and reading a
 * message's text.
 *
 * @module
 */
import * as v from 'valibot';
import { issuePath } from '../evidence/index.ts';
import type { Result } from '../failures/index.ts';
import { excerpt, oneLine } from '../internal/display.ts';
import type { ChatMessage } from './chat/message.ts';
import { ChatMessageSchema } from './chat-message-schema.ts';

/**
 * The result of {@link validateChatMessage}: the message as `value`, or `failures` holding one
 * one-line diagnostic naming the field (the first problem found).
 *
 * @example
 * ```ts
 * import { validateChatMessage, type ChatMessageCheck } from 'turngate/transcripts';
 * const check: ChatMessageCheck = validateChatMessage({ role: 'user', content: '' });
 * check.ok ? check.value.role : check.failures[0]; //=> 'content: expected a non-empty string'
 * ```
 */
export type ChatMessageCheck = Result<ChatMessage, string>;

/**
 * Validates a value as a `ChatMessage` (harness-chat §3.1): the role, the per-role content
 * rules, the content blocks, `tool_calls` only on assistant messages, `tool_call_id` on tool
 * messages.
 *
 * @param value - Any value.
 * @returns The message, or `failures` holding a one-line diagnostic naming the field.
 * @example
 * ```ts
 * import { validateChatMessage } from 'turngate/transcripts';
 * validateChatMessage({ role: 'tool', content: 'done' }).ok; //=> false (no tool_call_id)
 * ```
 */
export function validateChatMessage(value: unknown): ChatMessageCheck {
  const result = v.safeParse(ChatMessageSchema, value);
  // The schema's refinements are what the hand-written types say, so the output is a ChatMessage.
  if (result.success) return { ok: true, value: result.output as ChatMessage };
  return { ok: false, failures: [chatMessageDiagnostic(result.issues[0])] };
}

/** A one-line diagnostic for a failed `ChatMessage` validation, naming the deepest field. */
function chatMessageDiagnostic(first: v.BaseIssue<unknown>): string {
  // A union (string or blocks) reports only "expected string | Array": name the deepest cause.
  // Nested issue paths are relative to the union, so the union's own path is prefixed.
  let issue: v.BaseIssue<unknown> = first;
  let prefix: v.IssuePathItem[] = [];
  while (issue.issues !== undefined && issue.issues.length > 0) {
    prefix = [...prefix, ...(issue.path ?? [])];
    issue = issue.issues.reduce((deepest, next) =>
      (next.path?.length ?? 0) > (deepest.path?.length ?? 0) ? next : deepest,
    );
  }
  const path = issuePath({
    ...issue,
    path: [...prefix, ...(issue.path ?? [])] as [v.IssuePathItem, ...v.IssuePathItem[]],
  });
  const received = issue.received;
  // The value as received is the sender's input: shown bounded, with control characters escaped.
  const message =
    received.length > RECEIVED_LIMIT && issue.message.endsWith(received)
      ? `${issue.message.slice(0, -received.length)}${excerpt(received, RECEIVED_LIMIT)}`
      : issue.message;
  const what =
    issue.kind === 'schema' && received === 'undefined' ? `${path === '' ? 'field' : path} is required` : message;
  return oneLine(path === '' || what.startsWith(path) ? what : `${path}: ${what}`, DIAGNOSTIC_LIMIT);
}

/** How much of a received value a diagnostic quotes (UTF-16 code units). */
const RECEIVED_LIMIT = 80;
/** How long a whole diagnostic may be (its path holds the sender's keys too). */
const DIAGNOSTIC_LIMIT = 400;

/**
 * The text of a message's content: the string, or its text blocks joined by newlines.
 *
 * @example
 * ```ts
 * import { messageText } from 'turngate/transcripts';
 * messageText({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image', source: { type: 'url', url: 'u' } }] }); //=> 'a'
 * ```
 */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (content === undefined) return '';
  const texts: string[] = [];
  for (const block of content) if (block.type === 'text' && block.text !== '') texts.push(block.text);
  return texts.join('\n');
}
