/**
 * Which Responses item types are client calls and which are their outputs (the lists in
 * `core/kinds.ts`, which the markers share). Internal; kept
 * apart from the schemas so the checker (and the CLI bundle) does not load valibot for them.
 *
 * @module
 */
import { RESPONSES_CALL_ITEM_TYPES, RESPONSES_OUTPUT_ITEM_TYPES } from '../core/kinds.ts';

/** {@link RESPONSES_CALL_ITEM_TYPES} as a set. */
export const RESPONSES_CALL_TYPES: ReadonlySet<string> = new Set(RESPONSES_CALL_ITEM_TYPES);

/** {@link RESPONSES_OUTPUT_ITEM_TYPES} as a set. */
export const RESPONSES_OUTPUT_TYPES: ReadonlySet<string> = new Set(RESPONSES_OUTPUT_ITEM_TYPES);

/**
 * The prefix the API requires of an item's `id`, by item type (its 400: "Expected an ID that begins
 * with 'fc'"); assistant messages take `msg`. Types not listed are not checked.
 */
export const RESPONSES_ID_PREFIX: { readonly [type: string]: string } = {
  function_call: 'fc',
  custom_tool_call: 'ctc',
  reasoning: 'rs',
};

/** The prefix of an assistant message's `id`. */
export const ASSISTANT_MESSAGE_ID_PREFIX = 'msg';
