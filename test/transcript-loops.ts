/**
 * A format-neutral model of tool-calling loops, rendered into each wire format, with the
 * single mutations the property tests apply (drop, duplicate or move a result, inject a message
 * between a call and its results) and the failures each format's rules give for them.
 */
import fc from 'fast-check';
import type { TranscriptFormat } from '../src/check/stop-reasons.ts';

/** One step of a loop. */
export type Step =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string | undefined; readonly calls: readonly Call[] }
  | { readonly kind: 'results'; readonly ids: readonly string[] }
  | { readonly kind: 'inject'; readonly role: 'user' | 'assistant'; readonly text: string };

/** A tool call. */
export interface Call {
  readonly id: string;
  readonly name: string;
}

const NAMES = ['get_weather', 'read_file', 'search_docs', 'list_orders'] as const;

/**
 * Valid loops: a user message, then rounds of an assistant message with calls answered by one
 * results step (in any order), ending on an assistant message without calls (or, when `open`,
 * on an assistant message with calls and no results).
 */
export function loopArbitrary(options: { readonly open?: boolean } = {}): fc.Arbitrary<Step[]> {
  const round = fc.record({
    text: fc.option(fc.constantFrom('Let me check.', 'Looking that up.'), { nil: undefined }),
    names: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    order: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    user: fc.boolean(),
  });
  return fc.array(round, { minLength: 1, maxLength: 5 }).map((rounds) => {
    const steps: Step[] = [{ kind: 'user', text: 'Help me with my orders.' }];
    let n = 0;
    rounds.forEach((r, index) => {
      // Ids of 9 letters and digits: every format takes them (Mistral takes no other).
      const calls = r.names.map((name) => ({ id: `call${String(++n).padStart(5, '0')}`, name }));
      steps.push({ kind: 'assistant', text: r.text, calls });
      if (options.open === true && index === rounds.length - 1) return;
      const ids = calls.map((c) => c.id);
      const rotated = [...ids.slice((r.order[0] ?? 0) % ids.length), ...ids.slice(0, (r.order[0] ?? 0) % ids.length)];
      steps.push({ kind: 'results', ids: rotated });
      if (r.user && index < rounds.length - 1) {
        steps.push({ kind: 'assistant', text: 'Done with that part.', calls: [] });
        steps.push({ kind: 'user', text: 'Go on.' });
      }
    });
    if (options.open !== true) steps.push({ kind: 'assistant', text: 'All done.', calls: [] });
    return steps;
  });
}

function callsOf(steps: readonly Step[]): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (const step of steps) if (step.kind === 'assistant') for (const call of step.calls) calls.set(call.id, call);
  return calls;
}

/**
 * Renders a loop into a format's messages (items, contents). Gemini: `ids` says whether calls
 * carry ids; Responses: `bare` leaves out reasoning items and item ids; LangChain: `bare` writes
 * every message in the toJSON() form.
 */
export function render(
  format: TranscriptFormat,
  steps: readonly Step[],
  options: { readonly ids?: boolean; readonly bare?: boolean } = {},
): unknown[] {
  const calls = callsOf(steps);
  const name = (id: string) => calls.get(id)?.name ?? 'unknown_tool';
  const out: unknown[] = [];
  for (const step of steps) {
    switch (format) {
      case 'anthropic':
        if (step.kind === 'user' || (step.kind === 'inject' && step.role === 'user'))
          out.push({ role: 'user', content: step.text });
        else if (step.kind === 'inject') out.push({ role: 'assistant', content: step.text });
        else if (step.kind === 'assistant')
          out.push({
            role: 'assistant',
            content: [
              ...(step.text === undefined && step.calls.length > 0 ? [] : [{ type: 'text', text: step.text ?? 'OK.' }]),
              ...step.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: { q: c.id } })),
            ],
          });
        else
          out.push({
            role: 'user',
            content: step.ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: `result of ${id}` })),
          });
        break;
      case 'openai-chat':
      case 'chat':
      case 'mistral':
        if (step.kind === 'user' || step.kind === 'inject')
          out.push({ role: step.kind === 'inject' ? step.role : 'user', content: step.text });
        else if (step.kind === 'assistant') {
          if (step.calls.length === 0)
            // Mistral takes a history ending with an assistant message only as a prefix.
            out.push(
              format === 'mistral' && step === steps[steps.length - 1]
                ? { role: 'assistant', content: step.text ?? 'OK.', prefix: true }
                : { role: 'assistant', content: step.text ?? 'OK.' },
            );
          else
            out.push({
              role: 'assistant',
              content: format === 'chat' ? (step.text ?? '') : (step.text ?? null),
              tool_calls: step.calls.map((c) =>
                format === 'chat'
                  ? { id: c.id, name: c.name, arguments: { q: c.id } }
                  : { id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify({ q: c.id }) } },
              ),
            });
        } else for (const id of step.ids) out.push({ role: 'tool', tool_call_id: id, content: `result of ${id}` });
        break;
      case 'openai-responses':
        if (step.kind === 'user' || step.kind === 'inject')
          out.push({ role: step.kind === 'inject' ? step.role : 'user', content: step.text });
        else if (step.kind === 'assistant') {
          if (step.calls.length > 0 && options.bare !== true)
            out.push({ type: 'reasoning', id: `rs_${step.calls[0]?.id}`, summary: [] });
          if (step.text !== undefined || step.calls.length === 0)
            out.push({ type: 'message', role: 'assistant', content: step.text ?? 'OK.' });
          for (const c of step.calls)
            out.push({
              type: 'function_call',
              ...(options.bare === true ? {} : { id: `fc_${c.id}` }),
              call_id: c.id,
              name: c.name,
              arguments: JSON.stringify({ q: c.id }),
            });
        } else
          for (const id of step.ids) out.push({ type: 'function_call_output', call_id: id, output: `result of ${id}` });
        break;
      case 'aisdk':
        if (step.kind === 'user' || step.kind === 'inject')
          out.push({ role: step.kind === 'inject' ? step.role : 'user', content: step.text });
        else if (step.kind === 'assistant')
          out.push({
            role: 'assistant',
            content: [
              ...(step.text === undefined && step.calls.length > 0 ? [] : [{ type: 'text', text: step.text ?? 'OK.' }]),
              ...step.calls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: { q: c.id } })),
            ],
          });
        else
          out.push({
            role: 'tool',
            content: step.ids.map((id) => ({
              type: 'tool-result',
              toolCallId: id,
              toolName: name(id),
              output: { type: 'text', value: `result of ${id}` },
            })),
          });
        break;
      case 'bedrock-converse':
        if (step.kind === 'user' || step.kind === 'inject')
          out.push({ role: step.kind === 'inject' ? step.role : 'user', content: [{ text: step.text }] });
        else if (step.kind === 'assistant')
          out.push({
            role: 'assistant',
            content: [
              ...(step.text === undefined && step.calls.length > 0 ? [] : [{ text: step.text ?? 'OK.' }]),
              ...step.calls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: { q: c.id } } })),
            ],
          });
        else
          out.push({
            role: 'user',
            content: step.ids.map((id) => ({
              toolResult: { toolUseId: id, content: [{ text: `result of ${id}` }] },
            })),
          });
        break;
      case 'langchain': {
        // The three serialized forms LangChain reads, mixed as a history may mix them:
        // message-like objects for the human turns, toJSON() for AI messages, StoredMessage for
        // results; `bare`: the toJSON() form only (what conversion from ChatMessage writes).
        const lc = (cls: string, kwargs: Record<string, unknown>) => ({
          lc: 1,
          type: 'constructor',
          id: ['langchain_core', 'messages', cls],
          kwargs: { ...kwargs, additional_kwargs: {}, response_metadata: {} },
        });
        const ai = (content: unknown, tool_calls: unknown[]) =>
          lc('AIMessage', { content, tool_calls, invalid_tool_calls: [] });
        if (step.kind === 'user' || (step.kind === 'inject' && step.role === 'user'))
          out.push(
            options.bare === true ? lc('HumanMessage', { content: step.text }) : { type: 'human', content: step.text },
          );
        else if (step.kind === 'inject') out.push(ai(step.text, []));
        else if (step.kind === 'assistant')
          out.push(
            ai(
              step.text ?? (step.calls.length > 0 ? '' : 'OK.'),
              step.calls.map((c) => ({ id: c.id, name: c.name, args: { q: c.id }, type: 'tool_call' })),
            ),
          );
        else
          for (const id of step.ids)
            out.push(
              options.bare === true
                ? lc('ToolMessage', { content: `result of ${id}`, tool_call_id: id })
                : { type: 'tool', data: { content: `result of ${id}`, tool_call_id: id, name: name(id) } },
            );
        break;
      }
      case 'gemini': {
        const withIds = options.ids !== false;
        if (step.kind === 'user' || (step.kind === 'inject' && step.role === 'user'))
          out.push({ role: 'user', parts: [{ text: step.text }] });
        else if (step.kind === 'inject') out.push({ role: 'model', parts: [{ text: step.text }] });
        else if (step.kind === 'assistant')
          out.push({
            role: 'model',
            parts: [
              ...(step.text === undefined && step.calls.length > 0 ? [] : [{ text: step.text ?? 'OK.' }]),
              ...step.calls.map((c) => ({
                functionCall: { ...(withIds ? { id: c.id } : {}), name: c.name, args: { q: c.id } },
              })),
            ],
          });
        else
          out.push({
            role: 'user',
            parts: step.ids.map((id) => ({
              functionResponse: { ...(withIds ? { id } : {}), name: name(id), response: { output: `result of ${id}` } },
            })),
          });
        break;
      }
    }
  }
  return out;
}

/** A single mutation of a valid loop. */
export type Mutation =
  | { readonly kind: 'drop'; readonly id: string }
  | { readonly kind: 'duplicate'; readonly id: string }
  | { readonly kind: 'move-before-call'; readonly id: string }
  | { readonly kind: 'inject'; readonly role: 'user' | 'assistant'; readonly after: number };

/** The mutations a loop allows: per answered call, per call round. */
export function mutationsOf(steps: readonly Step[]): Mutation[] {
  const out: Mutation[] = [];
  steps.forEach((step, index) => {
    if (step.kind === 'results') {
      for (const id of step.ids)
        out.push({ kind: 'drop', id }, { kind: 'duplicate', id }, { kind: 'move-before-call', id });
    }
    if (step.kind === 'assistant' && step.calls.length > 0 && steps[index + 1]?.kind === 'results') {
      out.push({ kind: 'inject', role: 'user', after: index }, { kind: 'inject', role: 'assistant', after: index });
    }
  });
  return out;
}

/** Applies a mutation. */
export function mutate(steps: readonly Step[], mutation: Mutation): Step[] {
  if (mutation.kind === 'inject') {
    const injected: Step = {
      kind: 'inject',
      role: mutation.role,
      text: '<system-reminder>Keep answers short.</system-reminder>',
    };
    return [...steps.slice(0, mutation.after + 1), injected, ...steps.slice(mutation.after + 1)];
  }
  const out: Step[] = [];
  for (const step of steps) {
    if (step.kind === 'results' && step.ids.includes(mutation.id)) {
      if (mutation.kind === 'duplicate') out.push({ kind: 'results', ids: [...step.ids, mutation.id] });
      else {
        const rest = step.ids.filter((id) => id !== mutation.id);
        if (rest.length > 0) out.push({ kind: 'results', ids: rest });
      }
      continue;
    }
    if (
      mutation.kind === 'move-before-call' &&
      step.kind === 'assistant' &&
      step.calls.some((c) => c.id === mutation.id)
    ) {
      out.push({ kind: 'results', ids: [mutation.id] });
    }
    out.push(step);
  }
  return out;
}

/** A failure as the properties compare them: rule and sorted ids. */
export interface ExpectedFailure {
  readonly rule: string;
  readonly ids: readonly string[];
}

const RULES = {
  anthropic: {
    unanswered: 'anthropic.tool_use_unanswered',
    duplicate: 'anthropic.duplicate_tool_result',
    before: 'anthropic.tool_result_before_call',
    misplaced: 'anthropic.tool_result_not_immediately_after',
  },
  'openai-chat': {
    unanswered: 'openai-chat.tool_call_unanswered',
    duplicate: 'openai-chat.duplicate_tool_message',
    before: 'openai-chat.tool_message_before_call',
    misplaced: 'openai-chat.tool_message_not_adjacent',
  },
  chat: {
    unanswered: 'chat.tool_call_unanswered',
    duplicate: 'chat.duplicate_tool_result',
    before: 'chat.tool_result_before_call',
    misplaced: 'chat.tool_result_not_adjacent',
  },
  'openai-responses': {
    unanswered: 'openai-responses.function_call_unanswered',
    duplicate: 'openai-responses.duplicate_function_call_output',
    before: 'openai-responses.function_call_output_before_call',
    misplaced: '',
  },
  aisdk: {
    unanswered: 'aisdk.tool_call_unanswered',
    duplicate: 'aisdk.duplicate_tool_result',
    before: 'aisdk.tool_result_before_call',
    misplaced: 'aisdk.tool_result_separated',
  },
  'bedrock-converse': {
    unanswered: 'bedrock-converse.tool_use_unanswered',
    duplicate: 'bedrock-converse.duplicate_tool_result',
    before: 'bedrock-converse.tool_result_not_after_call',
    misplaced: 'bedrock-converse.tool_result_not_after_call',
  },
  langchain: {
    unanswered: 'langchain.tool_call_unanswered',
    duplicate: 'langchain.duplicate_tool_message',
    before: 'langchain.tool_message_before_call',
    misplaced: 'langchain.tool_message_not_adjacent',
  },
  mistral: {
    unanswered: 'mistral.tool_call_unanswered',
    duplicate: 'mistral.duplicate_tool_message',
    before: 'mistral.tool_message_before_call',
    misplaced: 'mistral.tool_message_not_adjacent',
  },
  gemini: {
    unanswered: 'gemini.function_call_unanswered',
    duplicate: 'gemini.duplicate_function_response',
    before: 'gemini.function_response_not_after_call',
    misplaced: 'gemini.function_response_not_after_call',
  },
} as const;

/** The failures format `format` gives for `mutation` of the valid loop `steps`. */
export function expectedFailures(
  format: TranscriptFormat,
  steps: readonly Step[],
  mutation: Mutation,
): ExpectedFailure[] {
  const failures = pairingFailures(format, steps, mutation);
  if (format === 'bedrock-converse') {
    // Bedrock: roles alternate strictly; an injected message or an emptied results step breaks that.
    const user = (step: Step) =>
      step.kind === 'user' || step.kind === 'results' || (step.kind === 'inject' && step.role === 'user');
    const mutated = mutate(steps, mutation);
    // One failure per run of one role.
    for (let i = 1; i < mutated.length; i++)
      if (
        user(mutated[i] as Step) === user(mutated[i - 1] as Step) &&
        (i === 1 || user(mutated[i - 1] as Step) !== user(mutated[i - 2] as Step))
      )
        failures.push({ rule: 'bedrock-converse.roles_not_alternating', ids: [] });
    return failures;
  }
  if (format !== 'gemini') return failures;
  // Gemini: a function call turn must follow a user content; emptying a results step can break that.
  const mutated = mutate(steps, mutation);
  mutated.forEach((step, index) => {
    const before = mutated[index - 1];
    const afterUser =
      before?.kind === 'user' || before?.kind === 'results' || (before?.kind === 'inject' && before.role === 'user');
    if (step.kind === 'assistant' && step.calls.length > 0 && !afterUser)
      failures.push({ rule: 'gemini.function_call_turn_misplaced', ids: step.calls.map((c) => c.id).sort() });
  });
  return failures;
}

function pairingFailures(format: TranscriptFormat, steps: readonly Step[], mutation: Mutation): ExpectedFailure[] {
  const rules = RULES[format];
  const perCall = format === 'openai-responses';
  const unanswered = (ids: readonly string[]): ExpectedFailure[] =>
    perCall
      ? ids.map((id) => ({ rule: rules.unanswered, ids: [id] }))
      : [{ rule: rules.unanswered, ids: [...ids].sort() }];
  switch (mutation.kind) {
    case 'drop':
      return unanswered([mutation.id]);
    case 'duplicate':
      return [{ rule: rules.duplicate, ids: [mutation.id] }];
    case 'move-before-call': {
      // The result lands right before its call's assistant message: for Mistral, after a user
      // message when that call was the first round's.
      const at = steps.findIndex((s) => s.kind === 'assistant' && s.calls.some((c) => c.id === mutation.id));
      const order =
        format === 'mistral' && steps[at - 1]?.kind === 'user' ? [{ rule: 'mistral.tool_after_user', ids: [] }] : [];
      return [{ rule: rules.before, ids: [mutation.id] }, ...unanswered([mutation.id]), ...order];
    }
    case 'inject': {
      const assistant = steps[mutation.after];
      const results = steps[mutation.after + 1];
      if (assistant?.kind !== 'assistant' || results?.kind !== 'results') return [];
      const ids = assistant.calls.map((c) => c.id);
      // Responses pairs anywhere after the call; the AI SDK lets an assistant message stand between.
      if (format === 'openai-responses' || (format === 'aisdk' && mutation.role === 'assistant')) return [];
      // Anthropic merges the injected user message into the results' turn: results not first,
      // one failure at the injected message (the cause) with every id.
      if (format === 'anthropic' && mutation.role === 'user')
        return [{ rule: 'anthropic.tool_result_not_first', ids: [...results.ids].sort() }];
      // Anthropic reports the misplaced results at the message standing between, once.
      if (format === 'anthropic') return [...unanswered(ids), { rule: rules.misplaced, ids: [...results.ids].sort() }];
      // Mistral also refuses the role order: a tool message right after a user message.
      const order =
        format === 'mistral' && mutation.role === 'user' ? [{ rule: 'mistral.tool_after_user', ids: [] }] : [];
      return [...unanswered(ids), ...results.ids.map((id) => ({ rule: rules.misplaced, ids: [id] })), ...order];
    }
  }
}
