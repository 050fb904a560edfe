import { expect, it } from 'vitest';
import { runMiddlewareExample } from '../examples/aisdk-middleware.ts';

it('examples/aisdk-middleware.ts: refuses, then repairs, the orphan result; guards every step of a tool loop', async () => {
  expect(await runMiddlewareExample()).toEqual([
    'refused: tool.result_orphan aisdk.tool_result_orphan [call_0] at messages[1].content[0]',
    'repaired: removed [call_0] at messages[1].content[0]',
    'repaired: inserted_message [call_0] at messages[1]',
    'model: calls lookupOrder',
    'tool loop: 2 steps, answer: Order A-1001: 42 EUR, shipped.',
  ]);
});
