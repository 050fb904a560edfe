/**
 * A tool loop against the OpenAI SDK's Chat Completions types, with a scripted model (no
 * network): every model call goes through `guardSend`.
 *
 * The loop injects a system reminder as soon as the model answers, before the tool messages,
 * so the tool messages no longer follow the assistant message that made the calls (the 400
 * "An assistant message with 'tool_calls' must be followed by tool messages responding to
 * each 'tool_call_id'"). The check names the rule and the ids; repair moves the tool messages
 * back under their calls.
 *
 * The tests run `runOpenAILoop()` (test/transcript-examples.test.ts).
 */
import type OpenAI from 'openai';
import { checkTranscript, guardSend, repairTranscript } from 'turngate/transcripts';

type Reply = Pick<OpenAI.ChatCompletion.Choice, 'message' | 'finish_reason'>;

/** The scripted model: two parallel calls, then an answer. */
function scriptedModel(messages: OpenAI.ChatCompletionMessageParam[]): Reply {
  if (messages.some((m) => m.role === 'tool')) {
    return {
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Order A-1001 can be refunded within 30 days.', refusal: null },
    };
  }
  return {
    finish_reason: 'tool_calls',
    message: {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'call_8fK2', type: 'function', function: { name: 'get_order', arguments: '{"id":"A-1001"}' } },
        { id: 'call_3mQ9', type: 'function', function: { name: 'refund_policy', arguments: '{}' } },
      ],
    },
  };
}

function runTool(name: string): string {
  return name === 'get_order' ? '{"id":"A-1001","placed":"2026-11-02"}' : '{"days":30}';
}

/**
 * Runs the loop and returns what happened, one line per step.
 *
 * @returns The log.
 */
export async function runOpenAILoop(): Promise<string[]> {
  const log: string[] = [];
  const send = guardSend('openai-chat', async (messages: OpenAI.ChatCompletionMessageParam[]) =>
    scriptedModel(messages),
  );
  const history: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'developer', content: 'You handle refunds.' },
    { role: 'user', content: 'Can I still return order A-1001?' },
  ];
  for (let turn = 0; turn < 4; turn++) {
    let report = checkTranscript(history, { format: 'openai-chat' });
    if (report.result === 'rejected') {
      for (const failure of report.failures)
        log.push(`check: ${failure.rule} [${failure.ids.join(', ')}] at ${failure.at}`);
      const repaired = repairTranscript(history, { format: 'openai-chat' });
      if (!repaired.ok) throw repaired.failures[0];
      for (const repair of repaired.value.repairs) log.push(`repair: ${repair.action} ${repair.at}`);
      history.splice(0, history.length, ...repaired.value.messages);
      report = checkTranscript(history, { format: 'openai-chat' });
    }
    if (report.result !== 'accepted') throw new Error(`not sendable: ${report.result}`);
    const reply = await send(report.transcript);
    history.push(reply.message);
    log.push(`model: ${reply.finish_reason}`);
    if (reply.finish_reason !== 'tool_calls') break;
    // The bug: a reminder goes in before the tool messages.
    history.push({ role: 'system', content: '<system-reminder>Quote the policy.</system-reminder>' });
    for (const call of reply.message.tool_calls ?? []) {
      if (call.type === 'function')
        history.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.function.name) });
    }
  }
  return log;
}
