/**
 * The issue memory snapshot ref a session records (`issuesSnapshotRef`). Pure.
 *
 * @module
 */
import { canonicalJson, compareUtf8, digestText, type JsonValue, isBlank } from '../canonical/index.ts';
import { objectAt, parseJsonText, requiredString } from './decode.ts';
import { HarnessInputError } from './errors.ts';

/**
 * The snapshot ref of an issue memory file (JSONL, one issue object with an `id` per line):
 * `iss1_` + the lowercase hex SHA-256 of each issue's canonical JSON plus a line end, issues in
 * `id` order (UTF-8 byte order), the last line of an id winning. It depends only on the issues'
 * content, so it is stable for unchanged issue memory (reordered lines, reformatted JSON, a
 * superseded line: same ref).
 *
 * Source: the Tusk harness contract §11 (`issuesSnapshotRef` stable for unchanged issue memory).
 * premath derives it from its own issue store's serialization; the two refs are not the same
 * bytes, so compare refs written by one implementation only.
 *
 * @param bytes - The issue memory file.
 * @param path - Its path, for errors.
 * @returns The `iss1_` ref.
 * @throws {@link HarnessInputError} with the line for a line that is not an issue object with an `id`.
 * @example
 * ```ts
 * import { issueMemorySnapshotRef } from 'turngate/tusk';
 * const a = issueMemorySnapshotRef(new TextEncoder().encode('{"id":"bd-2","status":"open"}\n{"id":"bd-1","status":"closed"}\n'), 'issues.jsonl');
 * const b = issueMemorySnapshotRef(new TextEncoder().encode('{"status":"closed","id":"bd-1"}\n{"id":"bd-2", "status":"open"}\n'), 'issues.jsonl');
 * a === b; //=> true
 * ```
 */
export function issueMemorySnapshotRef(bytes: Uint8Array, path: string): string {
  const byId = new Map<string, JsonValue>();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HarnessInputError('', 'expected UTF-8 issue memory (JSONL)', { path });
  }
  text.split('\n').forEach((line, index) => {
    if (isBlank(line)) return;
    const where = { path, line: index + 1 };
    try {
      const value = parseJsonText(line, 'issue');
      const id = requiredString(objectAt(value, 'issue', ['id'], 'an issue object'), 'id');
      byId.set(id, value);
    } catch (error) {
      if (error instanceof HarnessInputError) throw new HarnessInputError(error.field, error.expected, where);
      throw error;
    }
  });
  const lines = [...byId.keys()]
    .sort(compareUtf8)
    .map((id) => `${canonicalJson(byId.get(id) as JsonValue)}\n`)
    .join('');
  return `iss1_${digestText(lines).slice('sha256:'.length)}`;
}
