/**
 * Conformance adapter for OpenArmature harness-chat fixtures (`*.yaml` with `cases:`), reading
 * the vocabulary of the suite's header comment. A directive or expectation it does not support
 * fails the case (`harness_primitive_missing`), never a silent skip.
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import {
  ChatError,
  type ChatHarness,
  createChatHarness,
  InMemorySessionStore,
  sequentialGraph,
  suspend,
  type ChatNode,
  type ChatTurnOutcome,
  type SaveOptions,
  type SessionRecord,
  type SessionStore,
} from '../../src/chat/index.ts';
import { ChatMessageSchema } from '../../src/transcripts/index.ts';
import {
  type ChatCase,
  type ChatExpectation,
  ChatFixtureSchema,
  type ChatTurnSchema,
  messageOf,
  readYamlFixture,
} from './fixtures.ts';
import type { VectorVerdict } from './premath-suite.ts';
import { subsetMismatch } from './subset.ts';

/** A YAML mapping. */
type Yaml = Readonly<Record<string, unknown>>;

class Unsupported extends Error {
  constructor(what: string) {
    super(`harness_primitive_missing: ${what}`);
  }
}

class Mismatch extends Error {}

function assertKeys(value: Yaml, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw new Unsupported(`${where}.${key}`);
}

function contains(expected: unknown, actual: unknown): boolean {
  return subsetMismatch(expected, actual) === undefined;
}

function expectEqual(label: string, expected: unknown, actual: unknown): void {
  if (!contains(expected, actual))
    throw new Mismatch(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const FIELD_TYPES: Record<string, v.GenericSchema> = {
  'list[ChatMessage]': v.array(ChatMessageSchema),
  bool: v.boolean(),
  str: v.string(),
  string: v.string(),
  int: v.pipe(v.number(), v.integer()),
  float: v.number(),
};

function buildState(testCase: ChatCase) {
  const fields = testCase.state?.fields ?? {};
  const entries: Record<string, v.GenericSchema> = {};
  const initial: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    assertKeys(field, ['type', 'reducer', 'default'], `state.fields.${name}`);
    const schema = FIELD_TYPES[field.type];
    if (schema === undefined) throw new Unsupported(`state field type ${field.type}`);
    if (field.reducer !== undefined && !(name === 'messages' && field.reducer === 'append'))
      throw new Unsupported(`reducer ${field.reducer} on ${name}`);
    entries[name] = schema;
    if (name !== 'messages' && field.default !== undefined) initial[name] = field.default;
  }
  return { stateSchema: v.looseObject(entries), initial };
}

function buildNodes(testCase: ChatCase): Record<string, ChatNode> {
  const nodes: Record<string, ChatNode> = {};
  for (const [name, spec] of Object.entries(testCase.nodes ?? {})) {
    assertKeys(spec, ['update', 'suspend_with_descriptor', 'raises'], `nodes.${name}`);
    const { update, suspend_with_descriptor: descriptor, raises } = spec;
    if (update !== undefined) {
      nodes[name] = () => structuredClone(update);
    } else if (descriptor !== undefined) {
      // as written, other keys included (metadata only when given)
      const { metadata, ...rest } = descriptor;
      nodes[name] = () => suspend(metadata === undefined ? rest : { ...rest, metadata });
    } else if (raises !== undefined) {
      nodes[name] = () => {
        throw new ChatError(raises.category, raises.message ?? raises.category);
      };
    } else {
      throw new Unsupported(`nodes.${name} has no directive`);
    }
  }
  return nodes;
}

/** The store faults a fixture injects: the category each operation raises. */
interface StoreBehavior {
  readonly load_raises?: string | undefined;
  readonly save_raises?: string | undefined;
}

/** The in-memory store with the faults a fixture injects. */
class FaultyStore extends InMemorySessionStore {
  constructor(private readonly behavior: StoreBehavior) {
    super();
  }

  private fault(key: keyof StoreBehavior): ChatError | undefined {
    const category = this.behavior[key];
    return category === undefined ? undefined : new ChatError(category, `injected store fault: ${category}`);
  }

  override load(sessionId: string): Promise<SessionRecord | undefined> {
    const fault = this.fault('load_raises');
    return fault === undefined ? super.load(sessionId) : Promise.reject(fault);
  }

  override save(
    sessionId: string,
    record: Omit<SessionRecord, 'version'>,
    expectedVersion: number,
    options?: SaveOptions,
  ): Promise<number> {
    const fault = this.fault('save_raises');
    return fault === undefined ? super.save(sessionId, record, expectedVersion, options) : Promise.reject(fault);
  }

  override version(sessionId: string): Promise<number> {
    const fault = this.fault('load_raises');
    return fault === undefined ? super.version(sessionId) : Promise.reject(fault);
  }
}

function buildStore(spec: ChatCase['session_store']): SessionStore {
  if (spec === undefined || spec === 'in_memory') return new InMemorySessionStore();
  if (typeof spec === 'string') throw new Unsupported(`session_store ${spec}`);
  assertKeys(spec, ['type', 'behavior'], 'session_store');
  if (spec.type !== 'in_memory') throw new Unsupported(`session_store.type ${spec.type}`);
  const behavior = spec.behavior ?? {};
  assertKeys(behavior, ['load_raises', 'save_raises'], 'session_store.behavior');
  return new FaultyStore(behavior);
}

const EXPECTED_KEYS = [
  'outcome',
  'replies',
  'error_bucket',
  'error_category',
  'reply',
  'pending_messages',
  'signal_descriptor',
  'final_state',
  'dispatch_path',
];

async function checkOutcome(
  label: string,
  expected: ChatExpectation,
  outcome: ChatTurnOutcome,
  store: SessionStore,
  sessionId: string,
): Promise<void> {
  assertKeys(expected, [...EXPECTED_KEYS, 'listener'], label);
  expectEqual(`${label}.outcome`, expected.outcome, outcome.outcome);
  if (expected.dispatch_path !== undefined)
    expectEqual(`${label}.dispatch_path`, expected.dispatch_path, outcome.dispatchPath);
  if (expected.replies !== undefined)
    expectEqual(`${label}.replies`, expected.replies, outcome.outcome === 'completed' ? outcome.replies : undefined);
  if (expected.pending_messages !== undefined)
    expectEqual(
      `${label}.pending_messages`,
      expected.pending_messages,
      outcome.outcome === 'suspended' ? outcome.pendingMessages : undefined,
    );
  if (expected.signal_descriptor !== undefined)
    expectEqual(
      `${label}.signal_descriptor`,
      expected.signal_descriptor,
      outcome.outcome === 'suspended' ? outcome.signalDescriptor : undefined,
    );
  if (expected.error_bucket !== undefined)
    expectEqual(
      `${label}.error_bucket`,
      expected.error_bucket,
      outcome.outcome === 'errored' ? outcome.errorBucket : undefined,
    );
  if (expected.error_category !== undefined)
    expectEqual(
      `${label}.error_category`,
      expected.error_category,
      outcome.outcome === 'errored' ? outcome.errorCategory : undefined,
    );
  const { reply } = expected;
  if (reply !== undefined) {
    assertKeys(reply, ['role', 'content', 'content_matches_template', 'content_includes'], `${label}.reply`);
    const actual = outcome.outcome === 'errored' ? outcome.reply : undefined;
    const text = typeof actual?.content === 'string' ? actual.content : '';
    if (reply.role !== undefined) expectEqual(`${label}.reply.role`, reply.role, actual?.role);
    if (reply.content !== undefined) expectEqual(`${label}.reply.content`, reply.content, actual?.content);
    const template = reply.content_matches_template;
    if (template !== undefined && !text.toLowerCase().includes(template.toLowerCase())) {
      throw new Mismatch(
        `${label}.reply: ${JSON.stringify(text)} does not match the template ${JSON.stringify(template)}`,
      );
    }
    for (const part of reply.content_includes ?? []) {
      if (!text.includes(part))
        throw new Mismatch(`${label}.reply: ${JSON.stringify(text)} does not include ${JSON.stringify(part)}`);
    }
  }
  const finalState = expected.final_state;
  if (finalState !== undefined) {
    assertKeys(finalState, ['messages_count', 'messages_history_contains'], `${label}.final_state`);
    const messages =
      outcome.outcome === 'completed'
        ? outcome.finalState.messages
        : ((await store.load(sessionId))?.state.messages ?? []);
    if (finalState.messages_count !== undefined)
      expectEqual(`${label}.final_state.messages_count`, finalState.messages_count, messages.length);
    let at = 0;
    for (const wanted of finalState.messages_history_contains ?? []) {
      while (at < messages.length && !contains(wanted, messages[at])) at++;
      if (at === messages.length)
        throw new Mismatch(
          `${label}.final_state.messages_history_contains: ${JSON.stringify(wanted)} is not in order in the history`,
        );
      at++;
    }
  }
}

type ChatTurn = v.InferOutput<typeof ChatTurnSchema>;

/** The harness seen through `send`'s run-time contract: it takes any value and refuses a malformed message. */
interface SendsAnyValue {
  send(sessionId: string, message: unknown): Promise<ChatTurnOutcome>;
}

/**
 * Sends a fixture's user message as written: the harness validates it at run time (a fixture
 * may send a malformed message on purpose, to see it refused), so its static type is not
 * checked here (a method parameter is compared both ways, which lets `unknown` through).
 */
function sendAsWritten(harness: ChatHarness, sessionId: string, turn: ChatTurn): Promise<ChatTurnOutcome> {
  const loose: SendsAnyValue = harness;
  return loose.send(sessionId, turn.user_message);
}

async function runCase(testCase: ChatCase): Promise<void> {
  assertKeys(
    testCase,
    [
      'name',
      'description',
      'harness',
      'state',
      'entry',
      'nodes',
      'edges',
      'session_store',
      'chat_turns',
      'signal_arrivals',
      'invariants',
    ],
    'case',
  );
  const harnessSpec = testCase.harness ?? {};
  assertKeys(harnessSpec, ['mode', 'signal_coordinator'], 'harness');
  if (harnessSpec.mode !== 'sessioned') throw new Unsupported(`harness.mode ${String(harnessSpec.mode)}`);
  if (harnessSpec.signal_coordinator !== undefined && harnessSpec.signal_coordinator !== 'in_memory')
    throw new Unsupported(`harness.signal_coordinator ${harnessSpec.signal_coordinator}`);
  const { stateSchema, initial } = buildState(testCase);
  const edges = (testCase.edges ?? []).map((e) => ({ from: e.from, to: e.to }));
  const graph = sequentialGraph({ entry: testCase.entry, nodes: buildNodes(testCase), edges, stateSchema });
  const store = buildStore(testCase.session_store);
  const harness = createChatHarness({ graph, store, initialState: initial });
  const fired = new Map<string, ChatTurnOutcome[]>();
  const signalSessions = new Map<string, string>();
  const arrivals = testCase.signal_arrivals ?? [];
  const deliver = async (arrival: (typeof arrivals)[number]): Promise<void> => {
    assertKeys(
      arrival,
      ['signal_id', 'signal_payload', 'expected_listener_callback', 'after_turn'],
      'signal_arrivals[]',
    );
    const signalId = arrival.signal_id;
    const expected = arrival.expected_listener_callback;
    const listenerName = String(expected?.listener);
    const before = fired.get(listenerName)?.length ?? 0;
    await harness.signal(signalId, arrival.signal_payload ?? {});
    if (expected === undefined) return;
    const calls = fired.get(listenerName);
    if (calls === undefined) throw new Mismatch(`listener ${listenerName} was never subscribed`);
    const last = calls.at(-1);
    if (calls.length !== before + 1 || last === undefined)
      throw new Mismatch(
        `listener ${listenerName} fired ${calls.length - before} times for signal ${signalId}, expected once`,
      );
    await checkOutcome(`signal_arrivals.${signalId}`, expected, last, store, signalSessions.get(signalId) ?? '');
  };
  for (const turn of testCase.chat_turns ?? []) {
    assertKeys(turn, ['name', 'session_id', 'user_message', 'expected', 'subscribe_listener'], 'chat_turns[]');
    const sessionId = turn.session_id;
    const listener = turn.subscribe_listener;
    if (listener !== undefined) {
      fired.set(listener, []);
      harness.subscribe(sessionId, (outcome) => fired.get(listener)?.push(outcome));
    }
    const outcome = await sendAsWritten(harness, sessionId, turn);
    if (outcome.outcome === 'suspended') signalSessions.set(outcome.signalDescriptor.signal_id, sessionId);
    await checkOutcome(`chat_turns.${turn.name}`, turn.expected, outcome, store, sessionId);
    for (const arrival of arrivals.filter((a) => a.after_turn === turn.name)) await deliver(arrival);
  }
  for (const arrival of arrivals.filter((a) => a.after_turn === undefined)) await deliver(arrival);
}

/**
 * Runs every case of every `*.yaml` fixture in a harness-chat conformance directory.
 *
 * @param dir - The directory.
 * @returns One verdict per case (`<file>/<case name>`), in file order.
 * @throws FixtureError when a fixture is not YAML or does not have the shape of a harness-chat
 *   fixture (every file is read before any case runs).
 */
export async function runChatSuite(dir: string): Promise<VectorVerdict[]> {
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => ({ file, doc: readYamlFixture(ChatFixtureSchema, join(dir, file)) }));
  const verdicts: VectorVerdict[] = [];
  for (const { file, doc } of fixtures) {
    for (const testCase of doc.cases) {
      const id = `${file.replace(/\.yaml$/, '')}/${testCase.name}`;
      try {
        await runCase(testCase);
        verdicts.push({ id, passed: true, note: 'all expectations hold' });
      } catch (error) {
        verdicts.push({ id, passed: false, note: messageOf(error) });
      }
    }
  }
  return verdicts;
}

/** Whether a directory holds harness-chat fixtures. */
export function isChatSuite(dir: string): boolean {
  return readdirSync(dir).some((f) => f.endsWith('.yaml'));
}
