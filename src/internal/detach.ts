/**
 * Cutting freshly built objects off `Object.prototype`, so that reading a key they do not hold
 * gives `undefined` even when some other code has polluted the prototype. Internal; the join
 * check applies it to what its schemas and its normalization build, whose optional fields are
 * absent when not given.
 *
 * @module
 */

/** The own keys of `Object.prototype` that the language defines (ECMAScript and Annex B). */
const STANDARD_KEYS: ReadonlySet<string | symbol> = new Set([
  'constructor',
  '__defineGetter__',
  '__defineSetter__',
  'hasOwnProperty',
  '__lookupGetter__',
  '__lookupSetter__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toString',
  'valueOf',
  '__proto__',
  'toLocaleString',
]);

/**
 * Whether `Object.prototype` holds only the properties the language defines and
 * `Array.prototype` no array index: then no read of an absent key, nor of an array's hole, can
 * find a planted value. Anything more (a polluted `toolUse`, a symbol, `Array.prototype[2]`) is
 * pollution, or at least something to be careful about. About half a microsecond.
 */
export function objectPrototypeIsClean(): boolean {
  const keys = Reflect.ownKeys(Object.prototype);
  if (keys.length !== STANDARD_KEYS.size) return false;
  for (const key of keys) if (!STANDARD_KEYS.has(key)) return false;
  // A hole of an array reads through to Array.prototype: a planted index there is pollution too.
  // Array.prototype is an array: defining an index extends its length (or fails while the length
  // is not writable), so a length of 0 means no index, without listing its forty-odd keys (most
  // of this function's cost). A planted index deleted again leaves the length: look then.
  if (Array.prototype.length === 0) return true;
  for (const key of Reflect.ownKeys(Array.prototype))
    if (typeof key === 'string' && ARRAY_INDEX.test(key)) return false;
  return true;
}

/** An array index as a property key: `0`, or digits without a leading zero. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function detach(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) detach(value[i]);
    return;
  }
  // Objects already without a prototype (the boundary snapshot's and the parser's data) hold
  // nothing else below them; class instances (JsonNumber) are leaves; frozen objects are left
  // as they are.
  if (!isPlainObject(value) || !Object.isExtensible(value)) return;
  Object.setPrototypeOf(value, null);
  for (const key of Object.keys(value)) detach(value[key]);
}

/**
 * `value`, safe to read field by field whatever `Object.prototype` holds. While it holds only
 * what the language defines, `value` is returned as it is (an absent key reads as `undefined`
 * anyway, and nothing is spent). Otherwise every extensible plain object in it (through arrays
 * and objects) is given a `null` prototype, in place. Meant for trees the caller has just built
 * from own data: recursion is as deep as the tree, and it stops at objects that already have
 * no prototype.
 *
 * @param value - A tree of plain objects and arrays built by the caller.
 * @returns The same value.
 */
export function shielded<T>(value: T): T {
  if (!objectPrototypeIsClean()) detach(value);
  return value;
}

/**
 * A new empty object without a prototype that stays a fast object as keys are added
 * (`Object.create(null)` makes a slower dictionary-mode object in V8; cutting the prototype of
 * a literal does not).
 */
export function bareRecord<T = unknown>(): Record<string, T> {
  return Object.setPrototypeOf({}, null);
}
