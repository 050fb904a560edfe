// The measured work, one definition for every bench module.
//
//   job    what `turngate harness-join-check --input FILE --json` does with the file's bytes:
//          decode and parse them (lossless JSON), validate, normalize, check, and render the
//          --json report text.
//   floor  what no implementation of that job can avoid, done by the engine's own native code:
//          `JSON.parse` of the same input bytes (strict UTF-8 decoding first, as the job must),
//          `JSON.stringify` of a value that prints as the same report (two-space indentation),
//          and one SHA-256 over the report bytes (the job hashes at least that much canonical
//          text to digest the normalized evidence).
import * as crypto from 'node:crypto';
import * as turngate from '../../dist/join-check.js';
import { jobWith } from './job.mjs';

/**
 * The in-process job on `bytes` with this checkout's `dist/`; returns the report text.
 *
 * @param {Uint8Array} bytes
 * @returns {() => string}
 */
export function jobOf(bytes) {
  return jobWith(turngate, bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const sha256 =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * The floor for `bytes` whose report text is `report`; returns the digest (and keeps the parsed
 * input reachable through it, so no step is dead code).
 *
 * @param {Uint8Array} bytes
 * @param {string} report
 * @returns {() => { input: unknown, text: string, digest: string }}
 */
export function floorOf(bytes, report) {
  const reportValue = JSON.parse(report);
  return () => {
    const input = JSON.parse(utf8.decode(bytes));
    const text = `${JSON.stringify(reportValue, null, 2)}\n`;
    return { input, text, digest: sha256(text) };
  };
}
