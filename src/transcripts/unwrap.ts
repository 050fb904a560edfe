/**
 * A transcript input split into its messages and, for a request body, the body: the field of
 * the body is the format driver's `field` (also the root of paths). Internal.
 *
 * @module
 */
import type { TranscriptFormat } from '../check/index.ts';
import { invalid, isJsonObject, type JsonObject } from './core/input.ts';
import { refuseForeignStructure } from './core/markers.ts';
import { FORMAT_DRIVERS } from './formats.ts';
import { serializedInstances } from './langchain/instances.ts';

/** The field name of format `F`'s transcript in a request body. */
export type TranscriptField<F extends TranscriptFormat> = (typeof FORMAT_DRIVERS)[F]['field'];

/** A transcript input split into its messages and, for a request body, the body. */
export interface Unwrapped {
  readonly messages: readonly unknown[];
  readonly body: JsonObject | undefined;
}

/**
 * Reads a bare array of messages, or a request body holding them in the format's field
 * (`messages`, `input` or `contents`; other fields are kept for rules that need them). A
 * Responses body whose `input` is a string is one user message: no items to check. Every
 * reader starts here, so a history holding another format's structure (a `tool_use` block
 * checked as `openai-chat`) is refused here, for every format (see `markers.ts`);
 * `refuseForeign: false` only where the same input was just checked. LangChain message
 * instances are read through their serialized form (`langchain/instances.ts`).
 */
export function unwrapTranscript(input: unknown, format: TranscriptFormat, refuseForeign = true): Unwrapped {
  const field = FORMAT_DRIVERS[format].field;
  if (Array.isArray(input)) {
    const messages = format === 'langchain' ? serializedInstances(input, field) : input;
    if (refuseForeign) refuseForeignStructure(messages, format, field);
    return { messages, body: undefined };
  }
  if (!isJsonObject(input)) invalid(field, `an array of ${field}, or a request body with \`${field}\``);
  const messages = input[field];
  if (format === 'openai-responses' && typeof messages === 'string') return { messages: [], body: input };
  if (!Array.isArray(messages)) invalid(field, `an array (the request body's \`${field}\`)`);
  const read = format === 'langchain' ? serializedInstances(messages, field) : messages;
  if (refuseForeign) refuseForeignStructure(read, format, field);
  return { messages: read, body: input };
}
