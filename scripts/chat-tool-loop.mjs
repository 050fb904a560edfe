// The tool loop the chat load test and the fault suite run as their graph (one home for both
// workers): the user message `ask <tag>` makes the model ask for tool `lookup` with `{ tag }`,
// the tool answers with the tag, and the model replies `done <tag>`. Four messages per turn.
import { END, sequentialGraph } from '../dist/chat/index.js';

/** The tag a message carries (`ask <tag>`, `done <tag>`), or ''. */
export const tagOf = (message) =>
  typeof message?.content === 'string' ? message.content.replace(/^(ask|done) /, '') : '';

/** The tool calls of the last message when it is an assistant's. */
export const pendingCalls = (state) => {
  const last = state.messages.at(-1);
  return last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
};

/**
 * The tool-loop graph; the model node awaits `modelMs` milliseconds first (a model call).
 *
 * @param {number} modelMs
 */
export function toolLoopGraph(modelMs) {
  return sequentialGraph({
    entry: 'model',
    nodes: {
      model: async (state) => {
        await new Promise((resolve) => setTimeout(resolve, modelMs));
        const last = state.messages.at(-1);
        if (last?.role === 'user') {
          const tag = tagOf(last);
          return {
            messages: [
              {
                role: 'assistant',
                content: [],
                tool_calls: [{ id: `call_${tag}`, name: 'lookup', arguments: { tag } }],
              },
            ],
          };
        }
        return { messages: [{ role: 'assistant', content: `done ${last?.role === 'tool' ? last.content : '?'}` }] };
      },
      tools: (state) => ({
        messages: pendingCalls(state).map((call) => ({
          role: 'tool',
          tool_call_id: call.id,
          content: String(call.arguments?.tag),
        })),
      }),
    },
    edges: [
      { from: 'model', to: (state) => (pendingCalls(state).length > 0 ? 'tools' : END) },
      { from: 'tools', to: 'model' },
    ],
  });
}

/**
 * The whole turns of a stored history, in order, and how many places are torn. A whole turn is
 * the four messages of one tag: `ask <tag>`, the call `call_<tag>`, its result `<tag>`, and the
 * reply `done <tag>`. A message that starts no whole turn counts as torn once per run of them.
 *
 * @param {readonly { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[]} history
 * @returns {{ tags: string[]; torn: number }}
 */
export function readTurns(history) {
  const tags = [];
  let torn = 0;
  let stray = false;
  for (let i = 0; i < history.length; ) {
    const asked = history[i];
    const tag =
      asked.role === 'user' && typeof asked.content === 'string' ? asked.content.replace(/^ask /, '') : undefined;
    const [, call, result, reply] = history.slice(i, i + 4);
    const whole =
      tag !== undefined &&
      call?.role === 'assistant' &&
      call.tool_calls?.length === 1 &&
      call.tool_calls[0].id === `call_${tag}` &&
      result?.role === 'tool' &&
      result.tool_call_id === `call_${tag}` &&
      result.content === tag &&
      reply?.role === 'assistant' &&
      reply.content === `done ${tag}`;
    if (!whole) {
      if (!stray) torn++;
      stray = true;
      i++;
      continue;
    }
    stray = false;
    tags.push(tag);
    i += 4;
  }
  return { tags, torn };
}
