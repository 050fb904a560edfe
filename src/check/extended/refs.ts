/**
 * Ref containment for scopes and working directories. Internal.
 *
 * @module
 */

/** Whether `ref` has a `.` or `..` path segment (after its scheme), which no prefix can vouch for. */
function hasDotSegment(ref: string): boolean {
  const path = ref.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return path.split('/').some((segment) => segment === '.' || segment === '..');
}

/**
 * Whether `ref` is within one of `prefixes`: equal to a prefix, or below it at a `/` boundary
 * (`artifact://docs` holds `artifact://docs/a.md`, not `artifact://docs-old`). A ref with a `.`
 * or `..` segment is within none.
 */
export function withinAny(ref: string, prefixes: readonly string[]): boolean {
  if (hasDotSegment(ref)) return false;
  return prefixes.some((prefix) => ref === prefix || ref.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}
