/**
 * Showing input values to a person: excerpts of bounded length for error messages, and text
 * with control characters escaped for a terminal or a CI log. Internal; error types and the
 * command line write values through it. Every function here is a single linear pass.
 *
 * @module
 */

/** How many UTF-16 code units of one value an error message quotes. */
export const QUOTE_LIMIT = 200;

/**
 * The first `limit` code units of `text`, with the count of what was left out, so a message
 * never grows with its input: `abc… (1,048,573 more characters)`. A surrogate pair is not cut.
 *
 * @param text - The text.
 * @param limit - How many code units to keep; default {@link QUOTE_LIMIT}.
 */
export function excerpt(text: string, limit = QUOTE_LIMIT): string {
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${groupDigits(text.length - end)} more characters)`;
}

/**
 * What a terminal could act on instead of printing: C0 and C1 control characters and DEL (ESC
 * starts colour, cursor and title sequences, BEL rings; CR and LF start a new line, which in a CI
 * log can start a workflow command), the line and paragraph separators, every bidirectional
 * control of Unicode's Bidi_Control property (the embedding, override and isolate controls
 * U+202A-U+202E and U+2066-U+2069, which reorder what is shown, and the marks U+061C, U+200E,
 * U+200F), and lone surrogates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escapeUnit(code: number): string {
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` safe to print on one line of a terminal or CI log: every character {@link UNSAFE}
 * names is written as an escape (`\n`, `\r`, `\t`, otherwise `\u001b`-style, four lowercase hex
 * digits); everything else, backslashes and well-formed surrogate pairs included, is kept.
 *
 * @param text - Any string.
 */
export function escapeControls(text: string): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    } else if (!isUnsafe(code)) {
      continue;
    }
    out += text.slice(start, i) + escapeUnit(code);
    start = i + 1;
  }
  return out + text.slice(start);
}

/**
 * A value as a message quotes it, never growing with the value: a string in JSON string syntax
 * around at most {@link QUOTE_LIMIT} code units of it ({@link excerpt}),
 * `"abc… (131,000 more characters)"`; anything else as JSON (or `String`), cut the same way.
 * Never throws. Printed, it still goes through {@link escapeControls}.
 *
 * @param value - The value.
 */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(excerpt(value));
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = 'a value that cannot be shown';
  }
  return excerpt(text);
}

/**
 * A thrown value as one short line for an error message: `Name: message` for an `Error`,
 * `String(value)` otherwise, at most {@link QUOTE_LIMIT} code units ({@link excerpt}). Never
 * throws: a value whose `name`, `message` or `toString` throws is `a value that cannot be shown`.
 *
 * @param thrown - Whatever was thrown.
 */
export function describeThrown(thrown: unknown): string {
  let text: string;
  try {
    text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    text = 'a value that cannot be shown';
  }
  return excerpt(text);
}

/** How much of one message, explanation or name a line of human output shows. */
export const LINE_PART_LIMIT = 1000;

/**
 * Text from the input or the environment as part of one printed line: at most `limit` code
 * units ({@link excerpt}), then control characters escaped ({@link escapeControls}).
 *
 * @param text - Any string.
 * @param limit - How many code units to keep; default {@link LINE_PART_LIMIT}.
 */
export function oneLine(text: string, limit = LINE_PART_LIMIT): string {
  return escapeControls(excerpt(text, limit));
}

/**
 * A whole number with its digits grouped by commas, as `toLocaleString('en-US')` writes it
 * (`67108864` -> `67,108,864`), without it: the first `toLocaleString` of a process loads the
 * ICU locale data, which cost every `turngate` start about a tenth of its time.
 *
 * @param count - A non-negative whole number.
 * @returns The grouped digits.
 */
export function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
