/**
 * Reading a command's input with a size limit: a file, a device or standard input is read at
 * most one byte past the limit, so `--input /dev/zero` or an endless pipe stops there.
 *
 * @module
 */
import { constants } from 'node:buffer';
import { open } from 'node:fs/promises';
import { groupDigits } from '../internal/display.ts';
import type { Result } from '../failures/index.ts';

/** The input size limit when `--max-input-bytes` is not given: 64 MiB. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * The largest limit `--max-input-bytes` accepts: the longest string the JavaScript engine can
 * hold, in UTF-16 code units (536,870,888 on 64-bit Node), so any input under the limit can be
 * decoded into one string.
 */
export const MAX_INPUT_BYTES_CEILING = constants.MAX_STRING_LENGTH;

/** Why {@link readInput} stopped: more bytes than the limit, or the system's reason. */
export type InputProblem = { readonly tooLarge: true } | { readonly tooLarge: false; readonly reason: string };

/** What {@link readInput} read, or why it stopped (one {@link InputProblem}). */
export type InputRead = Result<Uint8Array, InputProblem>;

/** The limit in words: `64 MiB (67,108,864 bytes)`, or just the bytes when not a whole MiB. */
export function describeLimit(bytes: number): string {
  const exact = `${groupDigits(bytes)} bytes`;
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB (${exact})` : exact;
}

const TOO_LARGE: InputRead = { ok: false, failures: [{ tooLarge: true }] };

const SIZE = /^(\d{1,16})([KMG]?)$/i;
const UNIT: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * Reads a `--max-input-bytes` value: a whole number of bytes, optionally with a binary suffix
 * `K`, `M` or `G` (KiB, MiB, GiB), from 1 up to {@link MAX_INPUT_BYTES_CEILING}.
 *
 * @param text - The option's value.
 * @returns The limit in bytes, or `failures` holding a sentence saying what was expected.
 */
export function parseByteLimit(text: string): Result<number, string> {
  const match = SIZE.exec(text.trim());
  const bytes = match === null ? Number.NaN : Number(match[1]) * (UNIT[(match[2] ?? '').toLowerCase()] ?? 1);
  if (!(bytes >= 1 && bytes <= MAX_INPUT_BYTES_CEILING)) {
    return {
      ok: false,
      failures: [
        `--max-input-bytes expects a whole number of bytes from 1 to ${MAX_INPUT_BYTES_CEILING} (suffix K, M or G for KiB, MiB, GiB)`,
      ],
    };
  }
  return { ok: true, value: bytes };
}

const CHUNK = 1024 * 1024;

function joined(chunks: readonly Uint8Array[], total: number): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total);
}

async function readStandardInput(maxBytes: number): Promise<InputRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) {
      process.stdin.destroy();
      return TOO_LARGE;
    }
    chunks.push(chunk);
  }
  return { ok: true, value: joined(chunks, total) };
}

async function readPath(path: string, maxBytes: number): Promise<InputRead> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isFile() && stat.size > maxBytes) return TOO_LARGE;
    // A regular file is read in one piece of its size (plus one byte, to notice growth);
    // anything else (a pipe, a device) in 1 MiB pieces, each no further than the limit + 1.
    let next = stat.isFile() ? stat.size + 1 : CHUNK;
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(next, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await handle.read(buffer, filled, want - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > 0) chunks.push(buffer.subarray(0, filled));
      total += filled;
      if (total > maxBytes) return TOO_LARGE;
      if (filled < want) return { ok: true, value: joined(chunks, total) };
      next = CHUNK;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads a command's input: the file at `source`, or standard input for `-`, reading at most
 * `maxBytes + 1` bytes. Never rejects.
 *
 * @param source - A path, or `-`.
 * @param maxBytes - The input size limit in bytes.
 * @returns The bytes; or one {@link InputProblem}: `tooLarge` when there are more than
 *   `maxBytes`, or the system's reason the input could not be read (`ENOENT: ...`).
 */
export async function readInput(source: string, maxBytes: number): Promise<InputRead> {
  try {
    return source === '-' ? await readStandardInput(maxBytes) : await readPath(source, maxBytes);
  } catch (error) {
    return {
      ok: false,
      failures: [{ tooLarge: false, reason: error instanceof Error ? error.message : String(error) }],
    };
  }
}
