import { describe, expect, it } from 'vitest';
import { joinCheck } from './check.ts';
import { PROTOCOL_STOP_REASONS, protocolStopReason, STOP_REASON_TABLE, TRANSCRIPT_FORMATS } from './stop-reasons.ts';
import { HANDLED_STOP_REASONS } from './types.ts';

function verdictFor(stopReason: string): string[] {
  const outcome = joinCheck({
    evidence: {
      callSpec: {
        callId: 'c',
        modelRef: 'm',
        actionMode: 'json',
        executionPattern: 'single',
        normalizerId: 'n',
        mutationPolicyDigest: 'p',
        governancePolicyDigest: 'p',
        toolRenderProtocolDigest: 'p',
        reminderQueuePolicyDigest: 'p',
        stateViewPolicyDigest: 'p',
        decompositionPolicyDigest: 'p',
      },
      toolRequests: [],
      toolResults: [],
      toolUse: [],
      protocolState: { stopReason, continuationAllowed: false },
    },
  });
  if (!outcome.ok) throw outcome.failures[0];
  return [...outcome.value.failureClasses];
}

describe('stop reason table', () => {
  it('maps every provider stop reason to a protocol stop reason', () => {
    for (const format of TRANSCRIPT_FORMATS) {
      for (const [reason, mapped] of Object.entries(STOP_REASON_TABLE[format])) {
        expect(PROTOCOL_STOP_REASONS).toContain(mapped);
        expect(protocolStopReason(format, reason)).toBe(mapped);
      }
    }
  });

  it('agrees with the join check on which protocol stop reasons are handled', () => {
    for (const reason of PROTOCOL_STOP_REASONS) {
      const handled = (HANDLED_STOP_REASONS as readonly string[]).includes(reason);
      expect(verdictFor(reason).includes('protocol.stop_reason_unhandled')).toBe(!handled);
    }
  });

  it('fails closed on a reason the table does not know, and on inherited keys', () => {
    expect(protocolStopReason('anthropic', 'compaction')).toBe('unknown');
    expect(protocolStopReason('openai-chat', 'toString')).toBe('unknown');
    expect(protocolStopReason('openai-chat', 'STOP')).toBe('unknown');
  });

  it('reads Gemini STOP with function calls as tool_use, and only there', () => {
    expect(protocolStopReason('gemini', 'STOP')).toBe('end_turn');
    expect(protocolStopReason('mistral', 'tool_calls')).toBe('tool_use');
    expect(protocolStopReason('mistral', 'model_length')).toBe('max_tokens');
    expect(protocolStopReason('mistral', 'error')).toBe('error');
    expect(protocolStopReason('gemini', 'STOP', { hasToolCalls: true })).toBe('tool_use');
    expect(protocolStopReason('gemini', 'MAX_TOKENS', { hasToolCalls: true })).toBe('max_tokens');
    expect(protocolStopReason('openai-chat', 'stop', { hasToolCalls: true })).toBe('end_turn');
  });

  it('maps the Bedrock Converse stop reasons the API reference lists', () => {
    expect(protocolStopReason('bedrock-converse', 'tool_use')).toBe('tool_use');
    expect(protocolStopReason('bedrock-converse', 'end_turn')).toBe('end_turn');
    expect(protocolStopReason('bedrock-converse', 'model_context_window_exceeded')).toBe('max_tokens');
    expect(protocolStopReason('bedrock-converse', 'guardrail_intervened')).toBe('refusal');
    expect(protocolStopReason('bedrock-converse', 'content_filtered')).toBe('refusal');
    expect(protocolStopReason('bedrock-converse', 'malformed_tool_use')).toBe('error');
    expect(protocolStopReason('bedrock-converse', 'end_turn', { hasToolCalls: true })).toBe('end_turn');
    expect(protocolStopReason('bedrock-converse', 'pause_turn')).toBe('unknown');
  });

  it('reads a LangChain end_turn with tool calls as tool_use (LangChain has no stop reason of its own)', () => {
    expect(protocolStopReason('langchain', 'end_turn')).toBe('end_turn');
    expect(protocolStopReason('langchain', 'end_turn', { hasToolCalls: true })).toBe('tool_use');
    expect(protocolStopReason('langchain', 'tool_use')).toBe('tool_use');
    // The provider's own reasons (response_metadata.finish_reason) are read with the provider's format.
    expect(protocolStopReason('langchain', 'tool_calls')).toBe('unknown');
  });
});
