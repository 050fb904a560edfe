/**
 * Whether a value returned by user code is a promise to wait for or to catch. Internal.
 *
 * @module
 */

/**
 * Whether a value is a thenable (an object or function with a callable `then`). A `then` that
 * cannot be read (a getter or Proxy trap that throws) makes it no thenable: the caller reports
 * the value as it is. Never throws.
 *
 * @param value - What user code returned.
 * @returns Whether `value.then` is a function.
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof Reflect.get(value, 'then') === 'function';
  } catch {
    return false;
  }
}
