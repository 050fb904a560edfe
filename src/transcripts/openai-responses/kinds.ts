/**
 * Which Responses item types are client calls and which are their outputs. Internal; kept
 * apart from the schemas so the checker (and the CLI bundle) does not load valibot for them.
 *
 * @module
 */

/** Client call item types: the caller runs them and sends an output item back. */
export const RESPONSES_CALL_ITEM_TYPES = [
  'function_call',
  'custom_tool_call',
  'computer_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
] as const;

/** {@link RESPONSES_CALL_ITEM_TYPES} as a set. */
export const RESPONSES_CALL_TYPES: ReadonlySet<string> = new Set(RESPONSES_CALL_ITEM_TYPES);

/** Output item types, each answering a client call by `call_id` (`local_shell_call_output` by `id`). */
export const RESPONSES_OUTPUT_ITEM_TYPES = [
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
] as const;

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
