/**
 * Tool call id grammars: what ids a format takes, and how a conversion mints one in that
 * grammar from the source id's digest (deterministic, so repeated conversion gives the same
 * ids). Each format's grammar sits on its driver and reads the constants its own check uses
 * (one home per rule). Internal.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** What a conversion knows of a call when it mints an id for it. */
export interface IdSeed {
  /** The source id's SHA-256, 64 lowercase hex characters (with `#<attempt>` appended to the id before hashing after a collision). */
  readonly digest: string;
  /** The call's tool name. */
  readonly name: string;
  /** The call's position among the history's tool calls, from 0. */
  readonly index: number;
}

/** A format's tool call id grammar. */
export interface ToolCallIdGrammar {
  /** The grammar in words, for conversion records: `1 to 40 characters`. */
  readonly description: string;
  /** Whether the format takes `id` as a tool call id. */
  readonly accepts: (id: string) => boolean;
  /** An id the format takes, derived from `seed` only. */
  readonly mint: (seed: IdSeed) => string;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `length` characters of `alphabet` drawn from a hex digest (each character from two hex
 * digits, so at most 32 characters).
 */
export function digestChars(digest: string, length: number, alphabet: string = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++)
    out += alphabet[Number.parseInt(digest.slice(2 * i, 2 * i + 2), 16) % alphabet.length];
  return out;
}

/** The seed digest of `id` at `attempt` (0 first, then 1, 2, ... after collisions). */
export function seedDigest(id: string, attempt: number): string {
  return createHash('sha256')
    .update(attempt === 0 ? id : `${id}#${attempt}`)
    .digest('hex');
}

/** A grammar of ids of 1 to `max` characters of any kind, minted as `prefix` + alphanumerics. */
export function lengthGrammar(max: number, prefix: string): ToolCallIdGrammar {
  const body = Math.min(24, max - prefix.length);
  return {
    description: Number.isFinite(max) ? `1 to ${max} characters` : 'a non-empty string',
    accepts: (id) => id.length > 0 && id.length <= max,
    mint: (seed) => prefix + digestChars(seed.digest, body),
  };
}
