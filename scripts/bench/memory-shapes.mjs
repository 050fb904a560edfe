// Join-check inputs of one shape near a byte size, written in chunks (never built in memory):
// the memory benchmark (scripts/bench-memory.mjs) and the fuzz campaign's limits part both write
// them. A shape is one tool result whose payload fills the input, except `many calls` (requests,
// results and uses of about 150 bytes per call) and `many distinct keys` ({"k0":0,"k1":0,...}).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/** The shapes: `[open, unit, close]` of a payload repeated to size, or null for the two built otherwise. */
export const SHAPES = {
  'many calls': null,
  'one huge string': ['"', 'x', '"'],
  'escaped strings': ['"', '\\n', '"'],
  'many distinct keys': null,
  'many small numbers': ['[0', ',0', ']'],
  'many small objects': ['[{"a":0}', ',{"a":0}', ']'],
  'many empty objects': ['[{}', ',{}', ']'],
  'many small arrays': ['[[0]', ',[0]', ']'],
  'many short strings': ['["ab"', ',"ab"', ']'],
};

const { callSpec } = JSON.parse(
  readFileSync(new URL('../../examples/evidence/handoff-turn.json', import.meta.url), 'utf8'),
).evidence;

/**
 * Writes a turn of `shape` of about `bytes` bytes to `path`.
 *
 * @param {string} path
 * @param {keyof typeof SHAPES} shape
 * @param {number} bytes
 */
export function writeShape(path, shape, bytes) {
  const fd = openSync(path, 'w');
  const head = (open) =>
    `{"evidence":{"callSpec":${JSON.stringify(callSpec)},"protocolState":{"stopReason":"end_turn"},` +
    `"toolRequests":[{"toolCallId":"a","toolName":"t"}],"toolUse":[{"toolCallId":"a","disposition":"observed"}],` +
    `"toolResults":[{"toolCallId":"a","status":"ok","payload":${open}`;
  const tail = (close) => `${close}}]}}`;
  if (shape === 'many calls') {
    const rows = (n, row) => Array.from({ length: n }, (_, i) => row(`toolu_${String(i).padStart(8, '0')}`)).join(',');
    const n = Math.floor(bytes / 165);
    writeSync(
      fd,
      `{"evidence":{"callSpec":${JSON.stringify(callSpec)},"protocolState":{"stopReason":"end_turn"},` +
        `"toolRequests":[${rows(n, (c) => `{"toolCallId":"${c}","toolName":"fs.read"}`)}],` +
        `"toolResults":[${rows(n, (c) => `{"toolCallId":"${c}","status":"ok"}`)}],` +
        `"toolUse":[${rows(n, (c) => `{"toolCallId":"${c}","disposition":"observed"}`)}]}}`,
    );
  } else if (shape === 'many distinct keys') {
    const h = head('{"k":0');
    const t = tail('}');
    writeSync(fd, h);
    let written = h.length;
    let parts = [];
    for (let i = 0; written < bytes - t.length - 16; i++) {
      const part = `,"k${i}":0`;
      parts.push(part);
      written += part.length;
      if (parts.length === 10000) {
        writeSync(fd, parts.join(''));
        parts = [];
      }
    }
    writeSync(fd, parts.join('') + t);
  } else {
    const [open, unit, close] = SHAPES[shape];
    const h = head(open);
    const t = tail(close);
    let left = Math.floor((bytes - h.length - t.length) / unit.length);
    writeSync(fd, h);
    const chunk = unit.repeat(1 << 16);
    while (left > 0) {
      const n = Math.min(left, 1 << 16);
      writeSync(fd, n === 1 << 16 ? chunk : unit.repeat(n));
      left -= n;
    }
    writeSync(fd, t);
  }
  closeSync(fd);
}
