/**
 * RFC 3339 timestamps: strict validation, ordering by instant, and the harness's own format.
 * Pure: no clock is read here; the caller passes the time.
 *
 * @module
 */

/** An RFC 3339 timestamp read as an instant: whole seconds since the epoch and nanoseconds. */
export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z (negative before). */
  readonly seconds: number;
  /** Nanoseconds within the second, 0 to 1,999,999,999 (a leap second `:60` adds 1e9 to `:59`). */
  readonly nanos: number;
}

// date-time per RFC 3339 §5.6: full-date "T" full-time, with the §5.6 note's liberties: a
// lowercase `t`/`z`, or a space between date and time.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Reads an RFC 3339 date-time as an instant, or `undefined` when the text is not one: the
 * grammar of RFC 3339 §5.6, real calendar days (leap years included), hours 00-23, minutes
 * 00-59, seconds 00-60, an offset of at most 23:59. Fractions beyond nanoseconds are cut.
 *
 * @param text - The timestamp text (not trimmed).
 * @returns The instant, or `undefined`.
 */
export function parseRfc3339(text: string): Instant | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMins = Number(m[11]);
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const leap = second === 60 ? 1 : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second - leap, 0);
  const seconds = Math.floor(date.getTime() / 1000) - offsetMinutes * 60;
  const fraction = (m[7] ?? '').slice(0, 9).padEnd(9, '0');
  return { seconds, nanos: Number(fraction) + leap * 1e9 };
}

/**
 * Whether a string is an RFC 3339 date-time (see {@link parseRfc3339}).
 *
 * @param text - The text.
 * @returns `true` for a valid timestamp.
 */
export function isRfc3339(text: string): boolean {
  return parseRfc3339(text) !== undefined;
}

/**
 * Orders two instants: negative when `a` is earlier.
 *
 * @param a - An instant.
 * @param b - Another.
 * @returns A number whose sign orders them.
 */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}

/**
 * The instant of a `Date` (millisecond precision).
 *
 * @param date - A valid date.
 * @returns The instant.
 */
export function instantOf(date: Date): Instant {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1e6 };
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * Writes an instant as RFC 3339 in UTC with a `Z`, whole seconds, plus a 6-digit fraction when
 * the instant has sub-second microseconds (as Python's `isoformat` does).
 *
 * @param instant - The instant.
 * @returns E.g. `2026-02-22T01:00:00Z`.
 */
export function formatInstant(instant: Instant): string {
  const leap = instant.nanos >= 1e9 ? 1 : 0;
  const date = new Date(instant.seconds * 1000);
  const text =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds() + leap, 2)}`;
  const micros = Math.floor((instant.nanos - leap * 1e9) / 1000);
  return micros === 0 ? `${text}Z` : `${text}.${pad(micros, 6)}Z`;
}

/**
 * Writes a clock reading as the harness writes timestamps: RFC 3339, UTC, whole seconds, `Z`
 * (premath's `to_rfc3339_opts(SecondsFormat::Secs, true)`).
 *
 * @param date - The clock reading.
 * @returns E.g. `2026-02-22T01:00:00Z`.
 * @throws `RangeError` for an invalid date.
 */
export function formatRfc3339(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('the clock returned an invalid Date');
  return formatInstant({ seconds: Math.floor(date.getTime() / 1000), nanos: 0 });
}

/**
 * Moves an instant by whole hours (may be fractional).
 *
 * @param instant - The instant.
 * @param hours - Hours to add (negative to subtract).
 * @returns The moved instant.
 */
export function addHours(instant: Instant, hours: number): Instant {
  const totalNanos = instant.nanos + Math.round(hours * 3600 * 1e9);
  const carry = Math.floor(totalNanos / 1e9);
  return { seconds: instant.seconds + carry, nanos: totalNanos - carry * 1e9 };
}
