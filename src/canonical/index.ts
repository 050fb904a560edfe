/**
 * Canonical JSON and `sha256:` digests, byte-compatible with premath (DIGESTS.md): `turngate/canonical`,
 * one of the spec implementers' entry points with `turngate/evidence`, `turngate/normalize` and
 * `turngate/join-check` (an application needs none of them: `turngate` checks its turns).
 *
 * @module
 */
export { JsonNumber, JsonInputError, duplicateKeysOf } from './json-value.ts';
export { parseJson } from './json.ts';
export type { JsonValue, JsonInputErrorCode } from './json-value.ts';
export { formatF64, formatNumberLiteral, formatJsonNumber } from './number.ts';
export { canonicalJson, digest, digestText, prettyJson } from './canonical.ts';
export { trimWhiteSpace, isBlank, asciiLowercase, compareUtf8, sortUtf8 } from './text.ts';
