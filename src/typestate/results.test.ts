import { describe, expect, it } from 'vitest';
import { closedTurn } from '../../test/turn-fixtures.ts';
import { matchToolResult } from '../index.ts';

describe('matchToolResult', () => {
  it("calls the handler of the result's tool, and refuses a result with no handler", async () => {
    const closed = closedTurn();
    const lines = closed.results.map((r) =>
      matchToolResult(r, {
        'fs.read': (x) => (x.status === 'ok' ? `read ${x.output.text}` : 'read failed'),
        'web.search': (x) => (x.status === 'ok' ? `${x.output.hits} hits` : `search ${x.error.errorCode}`),
        'code.exec_only': () => 'exec',
        'issues.update': () => 'update',
      }),
    );
    expect(lines).toEqual(['read A', 'search timeout']);
    // biome-ignore lint/plugin: the test passes a value its types forbid, to check the run-time refusal
    expect(() => matchToolResult(closed.results[0] as never, {} as never)).toThrow(/no handler for tool "fs.read"/);
  });
});
