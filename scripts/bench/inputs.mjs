// Benchmark inputs: `harness-join-check` turns of any size in four shapes, generated
// deterministically (no randomness), so every run and every tool reads the same bytes.
//
//   compact  compact ASCII JSON; results carry a given `resultDigest`, no payloads: the row and
//            join path alone (parse, decode, normalize, set digests, render).
//   small    compact ASCII JSON; every ok result carries a small payload object that the check
//            digests (many small payloads: numbers, short strings, a short array).
//   pretty   two-space pretty-printed JSON with non-ASCII text (Greek, CJK, emoji) and strings
//            that need escapes (quotes, backslashes, newlines, tabs) in payloads and error
//            messages: the whitespace, UTF-8 decoding and string-quoting paths.
//   large    compact JSON; results carry given digests except three, whose payloads hold about
//            n records each (nested objects, floats, 64-bit integers, some non-ASCII): a few
//            large payloads.
//
// Every turn is accepted by the join check (every call requested, answered, used and rendered),
// so the whole report, witness and normalized evidence are rendered.

/** The shapes, in the order the tables print them. */
export const SHAPES = ['compact', 'small', 'pretty', 'large'];

/** One line per shape, for table headings. */
export const SHAPE_NOTES = {
  compact: 'compact ASCII, given result digests, no payloads',
  small: 'compact ASCII, a small payload on every ok result',
  pretty: 'pretty-printed, non-ASCII text and escapes in payloads and messages',
  large: 'compact, three large payloads (~n records each), the rest given digests',
};

const POLICY = {
  render: 'sha256:render-dual-v2',
  queue: 'sha256:reminder-queue-v1',
  view: 'sha256:state-view-v1',
};
const TOOLS = ['fs.read', 'repo.search', 'tests.run'];
const WORDS = [
  'Ελληνικά κείμενα',
  '日本語のテキスト',
  'emoji 🚀✨ mixed',
  'quote "inside" and \\ backslash',
  'line one\nline two\ttabbed',
  'Ünïcödé café naïve',
  'plain ascii words',
];

function hexish(i, width) {
  return (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(8).slice(0, width);
}

function callSpec(shape, n) {
  return {
    callId: `bench/${shape}-${n}`,
    modelRef: 'model/bench',
    actionMode: 'code',
    executionPattern: 'parallel',
    normalizerId: 'nf.v1',
    mutationPolicyDigest: 'sha256:mutation-v1',
    governancePolicyDigest: 'sha256:gov-v1',
    toolRenderProtocolDigest: POLICY.render,
    reminderQueuePolicyDigest: POLICY.queue,
    stateViewPolicyDigest: POLICY.view,
    decompositionPolicyDigest: 'sha256:decomp-v1',
  };
}

function errorRow(id, i, shape) {
  const message =
    shape === 'pretty'
      ? `appel ${i} — ${WORDS[i % WORDS.length]} — expiré après 5000 ms`
      : `call ${i} timed out after 5000 ms`;
  return { toolCallId: id, status: 'error', errorCode: 'timeout', retryable: true, errorMessage: message };
}

function smallPayload(i) {
  return { path: `src/file-${i}.ts`, bytes: 1000 + i, lines: [i, i + 1] };
}

function prettyPayload(i) {
  return {
    path: `src/モジュール-${i}/ファイル.ts`,
    title: WORDS[i % WORDS.length],
    summary: `${WORDS[(i + 3) % WORDS.length]}: ${WORDS[(i + 5) % WORDS.length]}`,
    bytes: 1000 + i,
    ratio: (i % 97) / 8,
    lines: [i, i + 1, i + 2],
    owner: { name: 'Zoë Ångström', handle: `@zoë${i}` },
  };
}

function largePayload(k, records) {
  const rows = [];
  for (let r = 0; r < records; r++) {
    rows.push({
      path: `pkg/${k}/dir-${r % 50}/file-${r}.ts`,
      size: 1024 + r * 7,
      mtime: 1.7e9 + r / 4,
      mode: r % 3 === 0 ? 'rw-r--r--' : 'rwxr-xr-x',
      inode: 2 ** 60 + r * 256, // beyond 2^53: a u64 literal premath keeps digit for digit
      tags: [`t${r % 7}`, `t${r % 11}`],
      owner: r % 5 === 0 ? 'Ren\u00e9' : 'build',
      meta: { lines: r * 3, blank: r % 4 === 0, checksum: hexish(r, 16) },
    });
  }
  return { root: `pkg/${k}`, entries: rows, truncated: false };
}

/**
 * A join-check input of `n` tool calls in one of {@link SHAPES}, as a plain value.
 *
 * @param {string} shape
 * @param {number} n
 */
export function turnValue(shape, n) {
  if (!SHAPES.includes(shape)) throw new Error(`unknown shape ${JSON.stringify(shape)}; expected ${SHAPES.join('|')}`);
  const ids = Array.from({ length: n }, (_, i) => `toolu_${String(i).padStart(8, '0')}`);
  const bigPayloadAt = new Set([0, Math.floor(n / 2), n - 1]);
  const records = Math.max(1, Math.ceil(n / 3));
  let big = 0;
  const toolResults = ids.map((id, i) => {
    if (shape !== 'large' && i % 10 === 9) return errorRow(id, i, shape);
    switch (shape) {
      case 'compact':
        return { toolCallId: id, status: 'ok', resultDigest: `sha256:${hexish(i, 64)}` };
      case 'small':
        return { toolCallId: id, status: 'ok', payload: smallPayload(i) };
      case 'pretty':
        return { toolCallId: id, status: 'ok', payload: prettyPayload(i) };
      default:
        return bigPayloadAt.has(i)
          ? { toolCallId: id, status: 'ok', payload: largePayload(big++, records) }
          : { toolCallId: id, status: 'ok', resultDigest: `sha256:${hexish(i, 64)}` };
    }
  });
  return {
    evidence: {
      callSpec: callSpec(shape, n),
      toolRequests: ids.map((id, i) => ({
        toolCallId: id,
        toolName: TOOLS[i % 3],
        schemaDigest: `sha256:schema-${i % 3}`,
      })),
      toolResults,
      toolUse: ids.map((id, i) => ({
        toolCallId: id,
        disposition: toolResults[i].status === 'error' ? 'observed' : 'consumed',
      })),
      protocolState: { stopReason: 'tool_use', continuationAllowed: true },
      toolRender: ids.map((id) => ({
        toolCallId: id,
        operatorPayloadDigest: `sha256:op-${id}`,
        reminderRenderDigest: `sha256:rem-${id}`,
        injectionPoint: 'tool_response',
        policyDigest: POLICY.render,
      })),
      reminderQueue: [{ queueId: 'q/main', reducedDigest: 'sha256:q', policyDigest: POLICY.queue }],
      stateViews: [{ viewId: 'v/main', viewDigest: 'sha256:v', policyDigest: POLICY.view }],
      sessionRefs: ['session://bench'],
      trajectoryRefs: ['trajectory://bench/1'],
    },
  };
}

/**
 * The input file's bytes: compact JSON, or two-space pretty JSON for the `pretty` shape.
 *
 * @param {string} shape
 * @param {number} n
 * @returns {Buffer}
 */
export function turnBytes(shape, n) {
  const value = turnValue(shape, n);
  return Buffer.from(shape === 'pretty' ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value));
}
