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
