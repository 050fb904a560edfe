/**
 * Canonical JSON and `sha256:` digests, byte-compatible with premath (DIGESTS.md).
 *
 * @module
 */
export { JsonNumber, JsonInputError, parseJson, duplicateKeysOf } from './json.ts';
export type { JsonValue, JsonInputErrorCode } from './json.ts';
export { formatF64, formatNumberLiteral, formatJsonNumber } from './number.ts';
export { canonicalJson, digest, digestText, prettyJson } from './canonical.ts';
export { trimWhiteSpace, isBlank, asciiLowercase, compareUtf8, sortUtf8 } from './text.ts';
