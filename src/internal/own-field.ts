/**
 * Reading one field of a value nobody checked (a thrown value, a record a store returned, options
 * a caller passed) without being fooled or stopped by it. Internal.
 *
 * @module
 */

/**
 * The value of `key` when it is an own data property of `value`; `undefined` otherwise: when
 * `value` is not an object, when the key is only inherited (a polluted `Object.prototype`
 * cannot supply it), when it is an accessor (no getter runs), or when a Proxy trap throws.
 * Never throws.
 *
 * @param value - Any value.
 * @param key - The property name.
 */
export function ownField(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/** {@link ownField} when it is a string, else `undefined`. */
export function ownString(value: unknown, key: string): string | undefined {
  const field = ownField(value, key);
  return typeof field === 'string' ? field : undefined;
}

/**
 * The class name of an object (its constructor's `name`, looked up along its prototype chain),
 * or `undefined`. Never throws; runs no getter of the value itself.
 *
 * @param value - Any value.
 */
export function className(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    let prototype: unknown = Object.getPrototypeOf(value);
    while (prototype !== null && prototype !== Object.prototype) {
      const maker = ownField(prototype, 'constructor');
      const name = ownString(maker, 'name');
      if (name !== undefined && name !== '') return name;
      prototype = Object.getPrototypeOf(prototype);
    }
  } catch {
    // A Proxy's getPrototypeOf trap threw: no name.
  }
  return undefined;
}

/**
 * `value[key]` when `key` is an own property of `value` (a value this library built, whose
 * optional fields a polluted `Object.prototype` must not fill in), else `undefined`.
 *
 * @param value - An object.
 * @param key - One of its optional keys.
 */
export function own<T extends object, K extends keyof T & string>(value: T, key: K): T[K] | undefined {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}
