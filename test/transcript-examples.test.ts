import { describe, expect, it } from 'vitest';
import { runAISDKLoop } from '../examples/aisdk-loop.ts';
import { runAnthropicLoop } from '../examples/anthropic-loop.ts';
import { runOpenAILoop } from '../examples/openai-loop.ts';

describe('provider loop examples', () => {
  it('Anthropic: the dropped failed result is caught before the call and repaired; a forged transcript is refused', async () => {
    expect(await runAnthropicLoop()).toEqual([
      'model: tool_use get_weather, flight_status',
      'check: anthropic.tool_use_unanswered [toolu_02Fl] at messages[1]',
      'repair: synthesized_result [toolu_02Fl]',
      'model: end_turn',
      'forged transcript refused: forged',
    ]);
  });

  it('OpenAI: the reminder between the calls and their tool messages is caught and moved out of the way', async () => {
    expect(await runOpenAILoop()).toEqual([
      'model: tool_calls',
      'check: openai-chat.tool_call_unanswered [call_3mQ9, call_8fK2] at messages[2]',
      'check: openai-chat.tool_message_not_adjacent [call_8fK2] at messages[4]',
      'check: openai-chat.tool_message_not_adjacent [call_3mQ9] at messages[5]',
      'repair: moved_result messages[4]',
      'repair: moved_result messages[5]',
      'model: stop',
    ]);
  });

  it('AI SDK: the approval settles the refund; trimming leaves an orphan result, which repair removes (keeping its words)', async () => {
    expect(await runAISDKLoop()).toEqual([
      'model: calls lookupOrder',
      'model: calls refundOrder',
      'approved refundOrder',
      'check: aisdk.tool_result_orphan [call_look] at messages[1].content[0]',
      'repair: removed [call_look]',
      'repair: inserted_message [call_look]',
      'model: answered',
    ]);
  });
});

describe('the built package', () => {
  it('imports no provider SDK at run time (the SDKs are for types and examples only)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dist = join(import.meta.dirname, '..', 'dist');
    const files = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(0);
    const sdk =
      /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["'](?:@anthropic-ai\/sdk|openai|ai|@google\/genai|@ai-sdk\/[^"']*)(?:\/[^"']*)?["']/;
    // Documentation comments may show an SDK import; the code may not.
    const code = (file: string) => readFileSync(join(dist, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(files.filter((file) => sdk.test(code(file)))).toEqual([]);
  });
});
