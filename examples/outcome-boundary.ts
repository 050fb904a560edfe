/**
 * The failure ADR 0014 was written about, replayed against the outcome boundary.
 *
 * A news agent delegates to two forged tools: `web_fetcher` (fetch a feed) and `rss_parser`
 * (parse it into items). In the recorded trace three things went wrong at the boundary, each
 * locally valid:
 *
 * 1. the fetcher delivered its body under another key spelling than the caller read;
 * 2. the caller called the fetcher as `fetch` on one turn and `fetch_url` on another;
 * 3. the parser, given no input, answered with an empty list: a silent success.
 *
 * Here each is caught or canonicalized at the boundary, every delegation leaves a validation
 * record, and the results go into a turn whose join the join check closes, with the violated
 * results set aside, never consumed.
 *
 * The test suite runs `runOutcomeBoundary()` (test/outcome-example.test.ts).
 */
import * as v from 'valibot';
import { joinCheck } from 'turngate/join-check';
import {
  checkUse,
  type ContractedToolResult,
  defineContracts,
  delegate,
  delegateAsync,
  Outcome,
  renderKnownTools,
  toToolResult,
} from 'turngate/outcome';

export const tools = defineContracts({
  web_fetcher: {
    purpose: 'fetch and extract content from URLs',
    deliverable: { type: 'object', required: ['body', 'statusCode'] },
    methods: ['fetch_url'],
    aliases: { fetch: 'fetch_url' },
    requiredInputs: ['url'],
  },
  rss_parser: {
    purpose: 'parse RSS feed XML into items',
    deliverable: v.array(v.object({ title: v.string(), link: v.pipe(v.string(), v.url()) })),
    methods: ['parse'],
    requiredInputs: ['xml'],
  },
});

const FEEDS: Readonly<Record<string, string>> = {
  'https://news.example/world.rss':
    '<rss><item><title>Rates held</title><link>https://news.example/a/1</link></item>' +
    '<item><title>Storm warning</title><link>https://news.example/a/2</link></item></rss>',
};

/** The fetcher as first forged: it keys its result the way its own language does. */
async function fetchV1(url: string) {
  const body = FEEDS[url];
  if (body === undefined) return Outcome.error('not_found', `no feed at ${url}`);
  return Outcome.ok({ [Symbol.for('body')]: body, status_code: 200 });
}

/** The fetcher as re-forged later: the right meaning, a key style no contract spelling matches. */
async function fetchV2(url: string) {
  return Outcome.ok({ Body: FEEDS[url] ?? '', status: 200 });
}

/** A parser that, without the boundary, would turn no input into `[]`. */
function parseFeed(xml: string) {
  const items = [...xml.matchAll(/<item><title>([^<]*)<\/title><link>([^<]*)<\/link><\/item>/g)];
  return Outcome.ok(items.map(([, title, link]) => ({ title, link })));
}

const callSpec = {
  callId: 'news-turn-3',
  modelRef: 'claude-sonnet-4-5',
  actionMode: 'code',
  executionPattern: 'parallel',
  normalizerId: 'nf.v1',
  mutationPolicyDigest: 'pol.mut.v1',
  governancePolicyDigest: 'pol.gov.v1',
  toolRenderProtocolDigest: 'pol.render.v1',
  reminderQueuePolicyDigest: 'pol.queue.v1',
  stateViewPolicyDigest: 'pol.view.v1',
  decompositionPolicyDigest: 'pol.decomp.v1',
};

export async function runOutcomeBoundary(): Promise<string[]> {
  const log: string[] = [];
  const url = 'https://news.example/world.rss';

  // What the model is told about the tools: canonical methods only, never the aliases.
  log.push(...renderKnownTools(tools).split('\n'));

  // 1 + 2: called through the alias `fetch`; the body comes back under Symbol.for('body') and
  // status_code. Both resolve to the contract's spelling, and the record says how.
  const fetched = await delegateAsync(tools.web_fetcher, { method: 'fetch', input: { url } }, ({ input }) =>
    fetchV1(String(input.url)),
  );
  log.push(
    `fetch -> ${fetched.record.result}; ${fetched.record.aliases
      .map((alias) =>
        alias.kind === 'method'
          ? `method ${alias.alias} = ${alias.method}`
          : `${alias.key} <- ${alias.source} ${alias.spelling}`,
      )
      .join('; ')}`,
  );
  const xml = fetched.outcome.status === 'ok' ? String(fetched.outcome.value.body) : undefined;

  // The re-forged fetcher: `Body` is not a spelling of `body`. A contract_violation, not a read of nothing.
  const drifted = await delegateAsync(tools.web_fetcher, { method: 'fetch_url', input: { url } }, ({ input }) =>
    fetchV2(String(input.url)),
  );
  if (drifted.outcome.status === 'error' && drifted.outcome.errorType === 'contract_violation') {
    const { expectedKeys, actualKeys } = drifted.outcome.details;
    log.push(`fetch_url (v2) -> contract_violation: expected ${expectedKeys.join(', ')}; got ${actualKeys.join(', ')}`);
  }

  // A method that is neither canonical nor an alias (from model output, so a string).
  const invented: string = 'fetch_page';
  const guessed = delegate(tools.web_fetcher, { method: invented, input: { url } }, () => Outcome.ok({}));
  if (guessed.outcome.status === 'error')
    log.push(`${invented} -> ${guessed.outcome.errorType}: ${guessed.outcome.message}`);

  // 3: the parser fed what the drifted fetch delivered, which is nothing: a typed error, not `[]`.
  const lost = drifted.outcome.status === 'ok' ? String(drifted.outcome.value.body) : undefined;
  const starved = delegate(tools.rss_parser, { method: 'parse', input: { xml: lost } }, ({ input }) =>
    parseFeed(String(input.xml)),
  );
  log.push(`parse(undefined) -> ${starved.outcome.status === 'error' ? starved.outcome.message : 'ok'}`);

  // The parser given the canonicalized body.
  const parsed = delegate(tools.rss_parser, { method: 'parse', input: { xml } }, ({ input }) =>
    parseFeed(String(input.xml)),
  );
  if (parsed.outcome.status === 'ok')
    log.push(`parse -> ${parsed.outcome.value.map((item) => item.title).join(' | ')}`);

  // The turn: each delegation answers one tool call; the join check accepts the violated results
  // as failed calls, set aside or retried, never consumed.
  const rows: ContractedToolResult[] = [
    toToolResult('toolu_01', fetched),
    toToolResult('toolu_02', drifted),
    toToolResult('toolu_03', guessed),
    toToolResult('toolu_04', starved),
    toToolResult('toolu_05', parsed),
  ];
  const refusedUse = checkUse('toolu_02', drifted.record, 'consumed');
  if (refusedUse !== undefined) log.push(`consume toolu_02 refused: ${refusedUse.class}`);
  const checked = joinCheck({
    evidence: {
      callSpec,
      toolRequests: rows.map((row) => ({ toolCallId: row.toolCallId, toolName: row.validation.tool })),
      toolResults: rows.map((row) =>
        row.status === 'ok'
          ? { toolCallId: row.toolCallId, status: 'ok', payload: JSON.parse(JSON.stringify(row.output)) }
          : { toolCallId: row.toolCallId, status: 'error', ...row.error },
      ),
      toolUse: rows.map((row) =>
        row.status === 'ok'
          ? { toolCallId: row.toolCallId, disposition: 'observed' }
          : row.admissibleDispositions !== undefined
            ? { toolCallId: row.toolCallId, disposition: 'discarded_with_reason', reasonCode: row.error.errorCode }
            : { toolCallId: row.toolCallId, disposition: 'retry_scheduled' },
      ),
      protocolState: { stopReason: 'end_turn', continuationAllowed: false },
    },
  });
  if (!checked.ok) throw checked.failures[0];
  log.push(
    `turn ${checked.value.result}; errors: ${rows
      .flatMap((row) => (row.status === 'error' ? [`${row.toolCallId} ${row.error.errorCode}`] : []))
      .join(', ')}`,
  );
  return log;
}
