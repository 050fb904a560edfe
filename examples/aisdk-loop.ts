/**
 * A tool loop against the AI SDK's `ModelMessage` types, with a scripted model (no network):
 * every model call goes through `guardSend`.
 *
 * The history is trimmed to its last messages before each call, which can cut an assistant
 * message off from its tool results (an orphan `tool-result` the providers refuse). The
 * refund tool needs approval: right after the model answers, `expect: 'received'` lists the
 * call as open; the approval response in the final message settles it for the SDK.
 *
 * The tests run `runAISDKLoop()` (test/transcript-examples.test.ts).
 */
import type { AssistantModelMessage, ModelMessage } from 'ai';
import { checkTranscript, guardSend, repairTranscript } from 'turngate/transcripts';

/** The scripted model: look the order up, then ask to refund it (with approval), then confirm. */
function scriptedModel(messages: ModelMessage[]): AssistantModelMessage {
  const results = messages.filter((m) => m.role === 'tool').length;
  if (results === 0)
    return {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'call_look', toolName: 'lookupOrder', input: { id: 'A-1001' } }],
    };
  if (
    !messages.some(
      (m) =>
        m.role === 'assistant' && Array.isArray(m.content) && m.content.some((p) => p.type === 'tool-approval-request'),
    )
  )
    return {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'call_refund', toolName: 'refundOrder', input: { id: 'A-1001' } },
        { type: 'tool-approval-request', approvalId: 'appr_1', toolCallId: 'call_refund' },
      ],
    };
  return { role: 'assistant', content: [{ type: 'text', text: 'Refunded A-1001.' }] };
}

/**
 * Runs the loop and returns what happened, one line per step.
 *
 * @returns The log.
 */
export async function runAISDKLoop(): Promise<string[]> {
  const log: string[] = [];
  const send = guardSend('aisdk', async (messages: ModelMessage[]) => scriptedModel(messages));
  let history: ModelMessage[] = [
    { role: 'system', content: 'You handle refunds.' },
    { role: 'user', content: 'Refund order A-1001.' },
  ];
  for (let turn = 0; turn < 4; turn++) {
    // The bug: keep the system message and the last three messages only.
    if (history.length > 4) history = [history[0] as ModelMessage, ...history.slice(-3)];
    let report = checkTranscript(history, { format: 'aisdk' });
    if (report.result === 'rejected') {
      for (const failure of report.failures)
        log.push(`check: ${failure.rule} [${failure.ids.join(', ')}] at ${failure.at}`);
      const repaired = repairTranscript(history, { format: 'aisdk' });
      if (!repaired.ok) throw repaired.failures[0];
      for (const repair of repaired.value.repairs) log.push(`repair: ${repair.action} [${repair.ids.join(', ')}]`);
      history = [...repaired.value.messages];
      report = checkTranscript(history, { format: 'aisdk' });
    }
    if (report.result !== 'accepted') throw new Error(`not sendable: ${report.result}`);
    const reply = await send(report.transcript);
    history.push(reply);
    const received = checkTranscript(history, { format: 'aisdk', expect: 'received' });
    const open = received.openToolCalls.map((call) => call.name);
    log.push(`model: ${open.length > 0 ? `calls ${open.join(', ')}` : 'answered'}`);
    if (open.length === 0) break;
    const parts = Array.isArray(reply.content) ? reply.content : [];
    const approval = parts.find((part) => part.type === 'tool-approval-request');
    if (approval !== undefined) {
      history.push({
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: approval.approvalId, approved: true }],
      });
      log.push('approved refundOrder');
      continue;
    }
    history.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_look',
          toolName: 'lookupOrder',
          output: { type: 'json', value: { id: 'A-1001', total: 42 } },
        },
      ],
    });
  }
  return log;
}
