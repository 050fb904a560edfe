/**
 * A tool loop against the Anthropic SDK's own types, with a scripted model (no network): every
 * model call goes through `guardSend`, so only a history `checkTranscript` accepted reaches it.
 *
 * The loop has the bug the issue describes: it forwards only the results of tools that
 * succeeded (`results.filter((r) => !r.is_error)`), so the failed call is left without a
 * `tool_result`, which the API answers with a 400. The check stops it before the call;
 * `repairTranscript` writes an error result for the dangling call and the loop goes on.
 *
 * The tests run `runAnthropicLoop()` (test/transcript-examples.test.ts).
 */
import type Anthropic from '@anthropic-ai/sdk';
import {
  checkTranscript,
  guardSend,
  repairTranscript,
  UncheckedTranscriptError,
  type SendableTranscript,
} from 'turngate/transcripts';

type Reply = Pick<Anthropic.Message, 'content' | 'stop_reason'>;

/** The scripted model: it asks for two tools, then answers from their results. */
function scriptedModel(messages: Anthropic.MessageParam[]): Reply {
  const last = messages[messages.length - 1];
  if (last?.role === 'user' && typeof last.content === 'string') {
    return {
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Checking both.', citations: null },
        {
          type: 'tool_use',
          id: 'toolu_01Wx',
          name: 'get_weather',
          input: { city: 'Oslo' },
          caller: { type: 'direct' },
        },
        {
          type: 'tool_use',
          id: 'toolu_02Fl',
          name: 'flight_status',
          input: { flight: 'SK4035' },
          caller: { type: 'direct' },
        },
      ],
    };
  }
  return {
    stop_reason: 'end_turn',
    content: [{ type: 'text', text: 'Snow in Oslo; the flight status is unavailable.', citations: null }],
  };
}

/** The tools: the flight backend is down. */
function runTool(name: string): string {
  if (name === 'flight_status') throw new Error('upstream timeout');
  return 'Snow, -3 °C';
}

/**
 * Runs the loop and returns what happened, one line per step.
 *
 * @returns The log.
 */
export async function runAnthropicLoop(): Promise<string[]> {
  const log: string[] = [];
  const send = guardSend('anthropic', async (messages: Anthropic.MessageParam[]) => scriptedModel(messages));
  const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Oslo, and is SK4035 on time?' }];

  for (let turn = 0; turn < 4; turn++) {
    let report = checkTranscript(history, { format: 'anthropic' });
    if (report.result === 'rejected') {
      for (const failure of report.failures)
        log.push(`check: ${failure.rule} [${failure.ids.join(', ')}] at ${failure.at}`);
      const repaired = repairTranscript(history, { format: 'anthropic' });
      if (!repaired.ok) throw repaired.failures[0];
      for (const repair of repaired.value.repairs) log.push(`repair: ${repair.action} [${repair.ids.join(', ')}]`);
      history.splice(0, history.length, ...repaired.value.messages);
      report = checkTranscript(history, { format: 'anthropic' });
    }
    if (report.result !== 'accepted') throw new Error(`not sendable: ${report.result}`);
    const reply = await send(report.transcript);
    history.push({ role: 'assistant', content: reply.content });
    const calls = reply.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    log.push(`model: ${reply.stop_reason}${calls.length > 0 ? ` ${calls.map((c) => c.name).join(', ')}` : ''}`);
    if (reply.stop_reason !== 'tool_use') break;

    const results: Anthropic.ToolResultBlockParam[] = calls.map((call) => {
      try {
        return { type: 'tool_result', tool_use_id: call.id, content: runTool(call.name) };
      } catch (error) {
        return { type: 'tool_result', tool_use_id: call.id, content: (error as Error).message, is_error: true };
      }
    });
    // The bug: failed results are dropped before they are sent.
    history.push({ role: 'user', content: results.filter((result) => result.is_error !== true) });
  }

  // A transcript that did not come from the check is refused before the call.
  try {
    // biome-ignore lint/plugin: a forged transcript, to show that the guarded call refuses it at run time
    await send({ format: 'anthropic', messages: history } as unknown as SendableTranscript<
      'anthropic',
      Anthropic.MessageParam
    >);
  } catch (error) {
    if (error instanceof UncheckedTranscriptError) log.push(`forged transcript refused: ${error.code}`);
  }
  return log;
}
