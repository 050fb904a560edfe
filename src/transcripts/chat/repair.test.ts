import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatMessageSchema } from '../chat-message-schema.ts';
import { checkTranscriptJson, ORPHANED_RESULT_MARK, repairTranscriptJson } from '../index.ts';
import * as v from 'valibot';

type Message = Record<string, unknown>;

const suite = join(import.meta.dirname, '../../../conformance/transcripts/chat');
const input = (name: string): Message[] =>
  (JSON.parse(readFileSync(join(suite, `${name}.json`), 'utf8')) as { input: Message[] }).input;

function repaired(messages: unknown) {
  const outcome = repairTranscriptJson(messages, { format: 'chat' });
  if (!outcome.ok) throw outcome.failures[0];
  return outcome.value;
}

describe('chat repair', () => {
  it('renames a call id over 40 characters with its tool message; the messages before stay the same objects', () => {
    const messages = input('tool-call-id-too-long');
    const value = repaired(messages);
    const long = 'ws_689e2d4880a0819d98acca37694989b00b15d90494fc6b87';
    const fresh = `${long.slice(0, 38)}_2`;
    expect((((value.messages[2] as Message)['tool_calls'] as Message[])[0] as Message)['id']).toBe(fresh);
    expect((value.messages[3] as Message)['tool_call_id']).toBe(fresh);
    expect(value.messages[0]).toBe(messages[0]);
    expect(value.messages[1]).toBe(messages[1]);
    expect(value.messages[4]).toBe(messages[4]);
    expect(value.repairs.map((r) => [r.action, r.rule])).toEqual([['renamed_call', 'chat.tool_call_id_too_long']]);
    expect(checkTranscriptJson([...value.messages], { format: 'chat' }).result).toBe('accepted');
  });

  it('keeps the text of an orphaned tool message as a valid user message after the run', () => {
    const messages = [
      { role: 'user', content: 'Book room 4B.' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'book_room', arguments: { room: '4B' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'confirmed' },
      { role: 'tool', tool_call_id: 'call_lost', content: 'Make it 11:00 instead.' },
      { role: 'assistant', content: 'Booked.' },
    ];
    const value = repaired(messages);
    expect(value.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(value.messages[3]).toEqual({
      role: 'user',
      content: `${ORPHANED_RESULT_MARK} A tool result whose call is no longer in this history said: Make it 11:00 instead.`,
    });
    for (const message of value.messages) expect(v.is(ChatMessageSchema, message)).toBe(true);
    expect(checkTranscriptJson([...value.messages], { format: 'chat' }).result).toBe('accepted');
  });

  it('takes a tool named as its definition is, dots included (the name grammar is judged with the tools)', () => {
    const messages = [
      { role: 'user', content: 'Send Bob $500' },
      { role: 'assistant', tool_calls: [{ id: 'call_t', name: 'bank.transfer', arguments: { amount: 500 } }] },
      { role: 'tool', tool_call_id: 'call_t', content: 'sent' },
    ];
    expect(checkTranscriptJson(messages, { format: 'chat' }).result).toBe('accepted');
  });
});
