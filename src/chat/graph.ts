/**
 * The graph a chat harness runs: an interface, and a small sequential node runner.
 *
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { validateWith, formatIssues } from '../typestate/tools.ts';
import { ChatError } from './errors.ts';
import type { ChatState, SignalDescriptor } from './store.ts';

/**
 * How a resumed invocation continues.
 *
 * @example
 * ```ts
 * import type { ResumeRequest } from 'turngate/chat';
 * declare const value: ResumeRequest;
 * value.invocationId;
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
 * What one graph invocation returns; errors are thrown with a `category`. `appendOnly: true`
 * promises that `state.messages` begins with the invoked state's messages, unchanged (the append
 * reducer); the harness then need not compare the history to save only the new messages.
 *
 * @example
 * ```ts
 * import type { GraphOutcome } from 'turngate/chat';
 * declare const value: GraphOutcome;
 * void value;
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
 * A chat graph: `invoke(state, { invocationId, resume? })` runs one invocation over the session
 * state and returns `completed` or `suspended`; it throws a categorized error (`{ category }`,
 * e.g. {@link ChatError}) on failure.
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
    options: { readonly invocationId: string; readonly resume?: ResumeRequest },
  ): Promise<GraphOutcome>;
}

const SUSPEND = Symbol('turngate.suspend');

/**
 * What a node calls to pause the turn (suspension §3): never returns.
 *
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
  throw { [SUSPEND]: true, descriptor };
}

/**
 * A node: reads the state, returns a partial update (or nothing), or calls {@link suspend}.
 *
 * @example
 * ```ts
 * import type { ChatNode } from 'turngate/chat';
 * const reply: ChatNode = (state) => ({ messages: [{ role: 'assistant', content: `You said ${state.messages.length} things.` }] });
 * ```
 */
export type ChatNode = (state: ChatState) => Partial<ChatState> | undefined | Promise<Partial<ChatState> | undefined>;

/**
 * The definition of a sequential graph.
 *
 * @example
 * ```ts
 * import type { SequentialGraphDefinition } from 'turngate/chat';
 * declare const value: SequentialGraphDefinition;
 * value.entry;
 * ```
 */
export interface SequentialGraphDefinition {
  /** The first node. */
  readonly entry: string;
  /** The nodes by name. */
  readonly nodes: Readonly<Record<string, ChatNode>>;
  /** Edges in order; the first edge from a node is taken; `END` ends the run. */
  readonly edges: readonly { readonly from: string; readonly to: string }[];
  /** Validates the state after a resume payload is merged (`suspension_resume_payload_invalid`). */
  readonly stateSchema?: StandardSchemaV1;
}

/**
 * The node name that ends a run.
 *
 * @example
 * ```ts
 * import { END, sequentialGraph } from 'turngate/chat';
 * sequentialGraph({ entry: 'a', nodes: { a: () => undefined }, edges: [{ from: 'a', to: END }] });
 * ```
 */
export const END = 'END';

function applyUpdate(state: ChatState, update: Partial<ChatState> | undefined): ChatState {
  if (update === undefined || update === null) return state;
  const next: Record<string, unknown> = { ...state };
  for (const [field, value] of Object.entries(update)) {
    if (field === 'messages') next['messages'] = [...state.messages, ...((value as ChatState['messages']) ?? [])];
    else next[field] = value;
  }
  return next as ChatState;
}

/**
 * A small sequential graph runner, enough for simple agents and the conformance fixtures: nodes
 * run one after another along the first matching edge; `messages` updates append (the append
 * reducer), other fields overwrite; a node may call {@link suspend}; on resume the payload is
 * overlaid on the state, validated against `stateSchema`, and the run continues after the
 * suspending node. Not a general graph engine: no branching conditions, fan-out or subgraphs.
 *
 * @param definition - Entry node, nodes, edges, optional state schema.
 * @returns A {@link ChatGraph}.
 * @throws {@link ChatError} `suspension_resume_payload_invalid` (from `invoke`) when the merged state fails the schema.
 * @example
 * ```ts
 * import { sequentialGraph } from 'turngate/chat';
 * const graph = sequentialGraph({
 *   entry: 'reply',
 *   nodes: { reply: () => ({ messages: [{ role: 'assistant', content: 'Hi there' }] }) },
 *   edges: [{ from: 'reply', to: 'END' }],
 * });
 * ```
 */
export function sequentialGraph(definition: SequentialGraphDefinition): ChatGraph {
  const next = (node: string): string => definition.edges.find((edge) => edge.from === node)?.to ?? END;
  return {
    async invoke(initial, options) {
      let state = initial;
      let node = definition.entry;
      if (options.resume !== undefined) {
        state = { ...state, ...options.resume.signalPayload, messages: state.messages } as ChatState;
        if (definition.stateSchema !== undefined) {
          const checked = validateWith(definition.stateSchema, state);
          if (!checked.ok)
            throw new ChatError(
              'suspension_resume_payload_invalid',
              `resume payload does not fit the state: ${formatIssues(checked.issues)}`,
            );
        }
        node = next(options.resume.node);
      }
      while (node !== END) {
        const body = definition.nodes[node];
        if (body === undefined) throw new ChatError('graph_node_missing', `no node named ${JSON.stringify(node)}`);
        try {
          state = applyUpdate(state, await body(state));
        } catch (error) {
          if (error !== null && typeof error === 'object' && SUSPEND in error) {
            return {
              outcome: 'suspended',
              state,
              // biome-ignore lint/plugin: only suspend() throws an object carrying SUSPEND, and it always sets descriptor
              descriptor: (error as unknown as { descriptor: SignalDescriptor }).descriptor,
              node,
              appendOnly: true,
            };
          }
          throw error;
        }
        node = next(node);
      }
      return { outcome: 'completed', state, appendOnly: true };
    },
  };
}
