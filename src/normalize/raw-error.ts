/**
 * The one home of premath's reading of an error row's `rawError`: the provider's raw error
 * object, whose fields stand in for a missing `errorCode`, `retryable` or `errorMessage`.
 * premath reads it two ways, and so do we, on purpose:
 *
 * - Normalization (`rawErrorFields`): for the code and the message, the long key wins whenever it
 *   is present at all (`errorCode`, else `code`; `errorMessage`, else `message`), and a value that
 *   is not a string gives nothing: no fallback to the short key.
 * - The envelope check (`rawErrorCovers`): a field counts as given when any of its keys holds a
 *   non-blank string (or, for `retryable`, a boolean).
 *
 * So `rawError: { errorCode: 7, code: "E" }` normalizes without a code but passes the envelope
 * check. Pinned by our vectors `normalize/raw_error_code_not_a_string_falls_back_only_in_the_check`,
 * `accept/error_row_envelope_in_raw_error_code_message`, `accept/error_row_envelope_in_raw_error_long_keys`
 * and `reject/opaque_raw_error_counts_as_error_row` (conformance/harness-typestate/), and premath's
 * `adversarial/untyped_tool_error_envelope_reject`. Internal.
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
import { isJsonObject } from '../internal/object.ts';

/** The raw error's keys for each envelope field, long key first. */
export const RAW_ERROR_KEYS = {
  errorCode: ['errorCode', 'code'],
  errorMessage: ['errorMessage', 'message'],
} as const;

/**
 * Normalization's reading: the raw value under the long key when that key is present, else under
 * the short one (`undefined` when neither, or when `raw` is not an object).
 */
export function rawErrorValue(
  raw: unknown,
  field: keyof typeof RAW_ERROR_KEYS,
): { key: string; value: unknown } | undefined {
  if (!isJsonObject(raw)) return undefined;
  const [long, short] = RAW_ERROR_KEYS[field];
  if (Object.hasOwn(raw, long)) return { key: long, value: raw[long] };
  if (Object.hasOwn(raw, short)) return { key: short, value: raw[short] };
  return undefined;
}

/** Normalization's reading of `retryable`: the raw boolean, if there is one. */
export function rawRetryable(raw: unknown): boolean | undefined {
  if (!isJsonObject(raw) || !Object.hasOwn(raw, 'retryable')) return undefined;
  const value = raw['retryable'];
  return typeof value === 'boolean' ? value : undefined;
}

/** The envelope check's reading: whether the raw error gives `field` (any key, non-blank string or boolean). */
export function rawErrorCovers(raw: unknown, field: keyof typeof RAW_ERROR_KEYS | 'retryable'): boolean {
  if (!isJsonObject(raw)) return false;
  if (field === 'retryable') return rawRetryable(raw) !== undefined;
  return RAW_ERROR_KEYS[field].some((key) => {
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
    return typeof value === 'string' && !isBlank(value);
  });
}
