import { describe, expect, it } from 'vitest';
import { runOutcomeBoundary } from '../examples/outcome-boundary.ts';

describe('examples/outcome-boundary.ts', () => {
  it('canonicalizes the key style and the alias, refuses the drifted shape, the invented method and the empty parse', async () => {
    expect(await runOutcomeBoundary()).toEqual([
      '<known_tools>',
      'rss_parser:',
      '  purpose: "parse RSS feed XML into items"',
      '  deliverable: {"type":"array","items":{"type":"object","required":["title","link"]}}',
      '  methods: ["parse"]',
      '  requiredInputs: ["xml"]',
      'web_fetcher:',
      '  purpose: "fetch and extract content from URLs"',
      '  deliverable: {"type":"object","required":["body","statusCode"]}',
      '  methods: ["fetch_url"]',
      '  requiredInputs: ["url"]',
      '</known_tools>',
      'fetch -> ok; method fetch = fetch_url; body <- symbol_key body; statusCode <- string_key status_code',
      'fetch_url (v2) -> contract_violation: expected body, statusCode; got Body, status',
      'fetch_page -> unknown_method: web_fetcher has no method "fetch_page"; its methods are fetch_url',
      'parse(undefined) -> rss_parser.parse was not called: required input "xml" is undefined',
      'parse -> Rates held | Storm warning',
      'consume toolu_02 refused: tool.schema_invalid',
      'turn accepted; errors: toolu_02 contract_violation, toolu_03 unknown_method, toolu_04 precondition_failed',
    ]);
  });
});
