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

/**
 * A schema issue's path as `formatPath` writes it (`items[0].link`): the one home for how a path
 * from a schema library reads. Takes a valibot issue path (items with a `key`) and a Standard
 * Schema path (keys, or segments with a `key`) alike; an index stays a number.
 *
 * @param path - The issue's path; `undefined` at the root.
 * @returns The path as text, `''` at the root.
 */
export function schemaIssuePath(path: readonly unknown[] | undefined): string {
  const segments: PathSegment[] = [];
  for (const step of path ?? []) {
    const key = typeof step === 'object' && step !== null ? (step as { readonly key?: unknown }).key : step;
    segments.push(typeof key === 'number' ? key : String(key));
  }
  return formatPath(segments);
}
