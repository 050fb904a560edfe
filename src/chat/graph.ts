/**
 * The graph a chat harness runs: an interface, and a small node runner with conditional edges.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { formatIssues, validateWith } from '../typestate/index.ts';
import { own } from '../internal/own-field.ts';
import { chatState } from './boundary.ts';
import { ChatError, GRAPH_PROGRAMMING_ERROR } from './errors.ts';
import type { ChatState, SignalDescriptor } from './session-records.ts';

/**
 * How a resumed invocation continues.
 *
 * @example
 * ```ts
 * import type { ResumeRequest } from 'turngate/chat';
 * const resume: ResumeRequest = { invocationId: 'inv-1', node: 'approval', signalPayload: { approved: true } };
 * ```
 */
export interface ResumeRequest {
  /** The paused invocation's id. */
  readonly invocationId: string;
  /** The node that suspended; the run continues after it. */
  readonly node: string;
  /** The signal payload, merged into state by shallow overlay (suspension §6). */
  readonly signalPayload: Readonly<Record<string, unknown>>;
}

/**
 * What one graph invocation returns; errors are thrown (with a `category` where known).
 * `appendOnly: true` promises that `state.messages` begins with the invoked state's messages,
 * unchanged (the append reducer); the harness then need not compare the history to save only the
 * new messages.
 *
 * @example
 * ```ts
 * import type { GraphOutcome } from 'turngate/chat';
 * const outcome: GraphOutcome = { outcome: 'suspended', state: { messages: [] }, descriptor: { signal_id: 'approval-1' }, node: 'gate' };
 * ```
 */
export type GraphOutcome =
  | { readonly outcome: 'completed'; readonly state: ChatState; readonly appendOnly?: boolean }
  | {
      readonly outcome: 'suspended';
      readonly state: ChatState;
      readonly descriptor: SignalDescriptor;
      readonly node: string;
      readonly appendOnly?: boolean;
    };

/**
 * A chat graph: `invoke(state, { invocationId, sessionId?, resume? })` runs one invocation over
 * the session state and returns `completed` or `suspended`; it throws on failure (a
 * {@link ChatError}, or anything `classifyError` can read). The harness passes the session's id.
 *
 * @example
 * ```ts
 * import type { ChatGraph } from 'turngate/chat';
 * const graph: ChatGraph = {
 *   async invoke(state) {
 *     return { outcome: 'completed', state: { ...state, messages: [...state.messages, { role: 'assistant', content: 'ok' }] }, appendOnly: true };
 *   },
 * };
 * ```
 */
export interface ChatGraph {
  invoke(
    state: ChatState,
    options: { readonly invocationId: string; readonly sessionId?: string; readonly resume?: ResumeRequest },
  ): Promise<GraphOutcome>;
}

const SUSPEND = Symbol('turngate.suspend');

/** What `suspend()` throws: the runner recognizes it by its class, a user object cannot pose as one. */
class Suspension {
  readonly [SUSPEND] = true;
  constructor(readonly descriptor: SignalDescriptor) {}
}

/**
 * What a node calls to pause the turn (suspension §3): it never returns. The mechanism is a
 * thrown internal value that the runner catches; a node must not catch it (a `try` around
 * `suspend()` must rethrow what it does not recognize). The suspending node counts as completed:
 * the resumed run continues with the node after it.
 *
 * @param descriptor - The signal descriptor (suspension §4).
 * @example
 * ```ts
 * import { sequentialGraph, suspend } from 'turngate/chat';
 * sequentialGraph({
 *   entry: 'gate',
 *   nodes: { gate: (state) => (state['approved'] === true ? undefined : suspend({ signal_id: 'approval-1', metadata: { action: 'send_email' } })) },
 *   edges: [],
 * });
 * ```
 */
export function suspend(descriptor: SignalDescriptor): never {
  throw new Suspension(descriptor);
}

/**
 * What a node is told besides the state: the invocation (the same id when a suspended turn
 * resumes) and the session it runs for (absent when the graph is invoked without one).
 *
 * @example
 * ```ts
 * import type { NodeContext } from 'turngate/chat';
 * const context: NodeContext = { invocationId: 'inv-1', sessionId: 's-1' };
 * ```
 */
export interface NodeContext {
  readonly invocationId: string;
  readonly sessionId?: string;
}

/**
 * A node: reads the state (and its {@link NodeContext}), returns a partial update (or nothing),
 * or calls {@link suspend}. `messages` in the update are appended; other fields overwrite.
 *
 * @example
 * ```ts
 * import type { ChatNode } from 'turngate/chat';
 * const reply: ChatNode = (state) => ({ messages: [{ role: 'assistant', content: `You said ${state.messages.length} things.` }] });
 * ```
 */
export type ChatNode = (
  state: ChatState,
  context: NodeContext,
) => Partial<ChatState> | undefined | Promise<Partial<ChatState> | undefined>;

/**
 * The node name that ends a run.
 *
 * @example
 * ```ts
 * import { END, sequentialGraph } from 'turngate/chat';
 * sequentialGraph({ entry: 'a', nodes: { a: () => undefined }, edges: [{ from: 'a', to: END }] });
 * ```
 */
export const END: 'END' = 'END';

/**
 * A routing function: picks the node after `from`, or {@link END}, from the state that node left.
 *
 * @example
 * ```ts
 * import { END, type Router } from 'turngate/chat';
 * const afterModel: Router<'model' | 'tools'> = (state) => {
 *   const last = state.messages.at(-1);
 *   return last?.role === 'assistant' && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
 * };
 * ```
 */
export type Router<TNode extends string> = (state: ChatState) => TNode | typeof END | Promise<TNode | typeof END>;

/**
 * An edge: after `from`, run `to` (a node or {@link END}), or the node a {@link Router} picks.
 *
 * @example
 * ```ts
 * import type { GraphEdge } from 'turngate/chat';
 * const edge: GraphEdge<'model' | 'tools'> = { from: 'tools', to: 'model' };
 * ```
 */
export interface GraphEdge<TNode extends string> {
  /** The node this edge leaves. */
  readonly from: TNode;
  /** The next node, {@link END}, or a routing function. */
  readonly to: TNode | typeof END | Router<TNode>;
}

/**
 * The definition of a {@link sequentialGraph}. Node names are typed: `entry`, `from`, `to` and
 * what a router returns must name a node of `nodes` (or `END`), or the call does not compile.
 *
 * @example
 * ```ts
 * import { END, sequentialGraph } from 'turngate/chat';
 * sequentialGraph({
 *   entry: 'model',
 *   nodes: { model: () => undefined, tools: () => undefined },
 *   edges: [
 *     { from: 'model', to: (state) => (state['pending'] === true ? 'tools' : END) },
 *     { from: 'tools', to: 'model' },
 *   ],
 * });
 * ```
 */
export interface SequentialGraphDefinition<TNode extends string = string> {
  /** The first node. */
  readonly entry: NoInfer<TNode>;
  /** The nodes by name (`END` is reserved). */
  readonly nodes: { readonly [K in TNode]: ChatNode };
  /** At most one edge per node; a node without an edge ends the run. */
  readonly edges: readonly GraphEdge<NoInfer<TNode>>[];
  /** Validates the state after a resume payload is merged (`suspension_resume_payload_invalid`). */
  readonly stateSchema?: StandardSchemaV1;
  /** How many nodes one invocation may run before it fails as a programming error; default 100. */
  readonly maxSteps?: number;
}

function applyUpdate(state: ChatState, update: unknown, node: string): ChatState {
  if (update === undefined || update === null) return state;
  if (typeof update !== 'object' || Array.isArray(update))
    throw new ChatError(GRAPH_PROGRAMMING_ERROR, `node ${node} returned ${typeof update}, not a state update`);
  const next: Record<string, unknown> = chatState(state, state.messages);
  for (const [field, value] of Object.entries(update)) {
    if (field !== 'messages') next[field] = value;
    else if (value === undefined) continue;
    else if (!Array.isArray(value))
      throw new ChatError(GRAPH_PROGRAMMING_ERROR, `node ${node} returned messages that are not a list`);
    // One exact copy of the history per step (a spread would iterate it and regrow the array);
    // `value` is read as a spread reads it, holes as `undefined`.
    else next['messages'] = state.messages.concat(Array.from(value));
  }
  return next as ChatState;
}

/**
 * A small graph runner, enough for agents with a tool loop and for the conformance fixtures: one
 * node runs at a time; after each, its edge picks the next (a fixed node, or a routing function
 * over the state; no edge ends the run); `messages` updates append (the append reducer), other
 * fields overwrite; a node may call {@link suspend}; on resume the payload is overlaid on the
 * state (suspension §6), validated against `stateSchema`, and the run continues after the
 * suspending node. Not a general graph engine: no parallel branches, fan-out or subgraphs.
 *
 * @param definition - Entry node, nodes, edges, optional state schema and step limit.
 * @returns A {@link ChatGraph}.
 * @throws TypeError when the definition is inconsistent: `entry` or an edge names no node, a node
 * has two edges, a node is named `END`, `maxSteps` is not a positive integer.
 * `invoke` throws {@link ChatError}: `suspension_resume_payload_invalid` when the merged state fails
 * the schema; `graph_programming_error` when a router returns no node name, a node returns
 * something that is not an update, or the run exceeds `maxSteps`.
 * @example
 * ```ts
 * import { END, sequentialGraph, type ChatState } from 'turngate/chat';
 * const pendingCalls = (state: ChatState) => {
 *   const last = state.messages.at(-1);
 *   return last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
 * };
 * const graph = sequentialGraph({
 *   entry: 'model',
 *   nodes: {
 *     model: (state) =>
 *       state.messages.at(-1)?.role === 'user'
 *         ? { messages: [{ role: 'assistant', content: [], tool_calls: [{ id: 'call_1', name: 'clock', arguments: {} }] }] }
 *         : { messages: [{ role: 'assistant', content: 'It is noon.' }] },
 *     tools: (state) => ({
 *       messages: pendingCalls(state).map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: '12:00' })),
 *     }),
 *   },
 *   edges: [
 *     { from: 'model', to: (state) => (pendingCalls(state).length > 0 ? 'tools' : END) },
 *     { from: 'tools', to: 'model' },
 *   ],
 * });
 * const run = await graph.invoke({ messages: [{ role: 'user', content: 'Time?' }] }, { invocationId: 'inv-1' });
 * run.state.messages.map((m) => m.role); //=> ['user', 'assistant', 'tool', 'assistant']
 * ```
 */
export function sequentialGraph<TNode extends string>(definition: SequentialGraphDefinition<TNode>): ChatGraph {
  const nodes = new Map<string, ChatNode>(Object.entries<ChatNode>(definition.nodes));
  const edges = new Map<string, GraphEdge<string>['to']>();
  const named = (name: string) => name === END || nodes.has(name);
  if (nodes.has(END)) throw new TypeError(`sequentialGraph: a node may not be named ${END}`);
  if (!nodes.has(definition.entry))
    throw new TypeError(`sequentialGraph: entry ${JSON.stringify(definition.entry)} names no node`);
  for (const edge of definition.edges) {
    if (!nodes.has(edge.from))
      throw new TypeError(`sequentialGraph: an edge leaves ${JSON.stringify(edge.from)}, not a node`);
    if (edges.has(edge.from)) throw new TypeError(`sequentialGraph: node ${JSON.stringify(edge.from)} has two edges`);
    if (typeof edge.to === 'string' && !named(edge.to))
      throw new TypeError(
        `sequentialGraph: the edge from ${JSON.stringify(edge.from)} leads to ${JSON.stringify(edge.to)}, not a node`,
      );
    edges.set(edge.from, edge.to);
  }
  const maxSteps = own(definition, 'maxSteps') ?? 100;
  const stateSchema = own(definition, 'stateSchema');
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new TypeError(`sequentialGraph: maxSteps must be a positive integer, not ${String(maxSteps)}`);

  const next = async (from: string, state: ChatState): Promise<string> => {
    const to = edges.get(from) ?? END;
    if (typeof to === 'string') return to;
    const picked: unknown = await to(state);
    if (typeof picked === 'string' && named(picked)) return picked;
    throw new ChatError(
      GRAPH_PROGRAMMING_ERROR,
      `the router after node ${from} returned ${JSON.stringify(picked) ?? String(picked)}, not a node name`,
    );
  };

  return {
    async invoke(initial, options) {
      let state = initial;
      let node: string = definition.entry;
      const resume = own(options, 'resume');
      const sessionId = own(options, 'sessionId');
      const context: NodeContext = {
        invocationId: options.invocationId,
        ...(typeof sessionId === 'string' && { sessionId }),
      };
      if (resume !== undefined) {
        state = chatState({ ...state, ...resume.signalPayload }, state.messages);
        if (stateSchema !== undefined) {
          const checked = validateWith(stateSchema, state);
          if (!checked.ok)
            throw new ChatError(
              'suspension_resume_payload_invalid',
              `the resume payload does not fit the state: ${formatIssues(checked.failures)}`,
            );
        }
        if (!nodes.has(resume.node))
          throw new ChatError('suspension_record_invalid', 'the step this conversation waits in no longer exists', {
            ids: [resume.node],
          });
        node = await next(resume.node, state);
      }
      for (let steps = 0; node !== END; steps++) {
        if (steps === maxSteps)
          throw new ChatError(GRAPH_PROGRAMMING_ERROR, `the run did not end within ${maxSteps} steps (maxSteps)`);
        const body = nodes.get(node) as ChatNode;
        try {
          state = applyUpdate(state, await body(state, context), node);
        } catch (error) {
          if (error instanceof Suspension) {
            return { outcome: 'suspended', state, descriptor: error.descriptor, node, appendOnly: true };
          }
          throw error;
        }
        node = await next(node, state);
      }
      return { outcome: 'completed', state, appendOnly: true };
    },
  };
}
