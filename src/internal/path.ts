/**
 * The one notation for a place inside an input: `evidence.toolResults[1].payload`. Internal;
 * schema issue paths, input errors and boundary snapshots all write paths through it.
 *
 * @module
 */

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

/**
 * Formats path segments as `a.b[2].c`: keys joined with dots, indices in brackets, `''` for the
 * root.
 *
 * @param segments - The steps from the root.
 * @param root - A name for the root, written first (e.g. `messages`), or `''`.
 */
export function formatPath(segments: readonly PathSegment[], root = ''): string {
  let out = root;
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}
