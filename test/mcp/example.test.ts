/** The README's MCP example (examples/mcp/anthropic-loop.ts), run with its scripted model. */
import { checkTranscript } from 'turngate/transcripts';
import { expect, it } from 'vitest';
import { runMcpLoop } from '../../examples/mcp/anthropic-loop.ts';

it('holds the destructive close while the reply is cut off, closes the ticket once the turn closes, once', async () => {
  const { history, log, held, replayed } = await runMcpLoop();
  expect(held).toEqual([['tickets__close_ticket'], [], []]);
  // Reads run at every answer (the replay's too); the close ran once.
  expect(log).toEqual(['read T-7', 'read T-7', 'closed T-7', 'read T-7']);
  expect(replayed).toEqual(['replayed']);
  expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  expect(checkTranscript(history, { format: 'anthropic' }).result).toBe('accepted');
});
