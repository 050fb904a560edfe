/**
 * Conformance adapter for OpenArmature harness-chat fixtures (`*.yaml` with `cases:`), reading
 * the vocabulary of the suite's header comment. A directive or expectation it does not support
 * fails the case (`harness_primitive_missing`), never a silent skip.
 *
 * @module
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { parse } from 'yaml';
import {
  ChatError,
  ChatMessageSchema,
  createChatHarness,
  InMemorySessionStore,
  sequentialGraph,
  suspend,
  type ChatMessage,
  type ChatNode,
  type ChatTurnOutcome,
  type SaveOptions,
  type SessionRecord,
  type SessionStore,
} from '../../src/chat/index.ts';
import type { VectorVerdict } from './premath-suite.ts';
import { subsetMismatch } from './subset.ts';

type Yaml = Record<string, unknown>;

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

function buildState(testCase: Yaml) {
  const fields = ((testCase['state'] as Yaml | undefined)?.['fields'] ?? {}) as Record<string, Yaml>;
  const entries: Record<string, v.GenericSchema> = {};
  const initial: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    assertKeys(field, ['type', 'reducer', 'default'], `state.fields.${name}`);
    const schema = FIELD_TYPES[String(field['type'])];
    if (schema === undefined) throw new Unsupported(`state field type ${String(field['type'])}`);
    if (field['reducer'] !== undefined && !(name === 'messages' && field['reducer'] === 'append'))
      throw new Unsupported(`reducer ${String(field['reducer'])} on ${name}`);
    entries[name] = schema;
    if (name !== 'messages' && field['default'] !== undefined) initial[name] = field['default'];
  }
  return { stateSchema: v.looseObject(entries), initial };
}

function buildNodes(testCase: Yaml): Record<string, ChatNode> {
  const nodes: Record<string, ChatNode> = {};
  for (const [name, spec] of Object.entries((testCase['nodes'] ?? {}) as Record<string, Yaml>)) {
    assertKeys(spec, ['update', 'suspend_with_descriptor', 'raises'], `nodes.${name}`);
    if (spec['update'] !== undefined) {
      const update = spec['update'] as Yaml;
      nodes[name] = () => structuredClone(update);
    } else if (spec['suspend_with_descriptor'] !== undefined) {
      const descriptor = spec['suspend_with_descriptor'] as { signal_id: string; metadata?: Yaml };
      nodes[name] = () => suspend(descriptor);
    } else if (spec['raises'] !== undefined) {
      const raises = spec['raises'] as { category: string; message?: string };
      nodes[name] = () => {
        throw new ChatError(raises.category, raises.message ?? raises.category);
      };
    } else {
      throw new Unsupported(`nodes.${name} has no directive`);
    }
  }
  return nodes;
}

/** The in-memory store with the faults a fixture injects. */
class FaultyStore extends InMemorySessionStore {
  constructor(private readonly behavior: Yaml) {
    super();
  }

  private fault(key: string): ChatError | undefined {
    const category = this.behavior[key];
    return category === undefined
      ? undefined
      : new ChatError(String(category), `injected store fault: ${String(category)}`);
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

function buildStore(spec: unknown): SessionStore {
  if (spec === undefined || spec === 'in_memory') return new InMemorySessionStore();
  if (spec === null || typeof spec !== 'object') throw new Unsupported(`session_store ${String(spec)}`);
  assertKeys(spec as Yaml, ['type', 'behavior'], 'session_store');
  if ((spec as Yaml)['type'] !== 'in_memory')
    throw new Unsupported(`session_store.type ${String((spec as Yaml)['type'])}`);
  const behavior = ((spec as Yaml)['behavior'] ?? {}) as Yaml;
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
  expected: Yaml,
  outcome: ChatTurnOutcome,
  store: SessionStore,
  sessionId: string,
): Promise<void> {
  assertKeys(expected, [...EXPECTED_KEYS, 'listener'], label);
  expectEqual(`${label}.outcome`, expected['outcome'], outcome.outcome);
  if (expected['dispatch_path'] !== undefined)
    expectEqual(`${label}.dispatch_path`, String(expected['dispatch_path']), outcome.dispatchPath);
  if (expected['replies'] !== undefined)
    expectEqual(`${label}.replies`, expected['replies'], outcome.outcome === 'completed' ? outcome.replies : undefined);
  if (expected['pending_messages'] !== undefined)
    expectEqual(
      `${label}.pending_messages`,
      expected['pending_messages'],
      outcome.outcome === 'suspended' ? outcome.pendingMessages : undefined,
    );
  if (expected['signal_descriptor'] !== undefined)
    expectEqual(
      `${label}.signal_descriptor`,
      expected['signal_descriptor'],
      outcome.outcome === 'suspended' ? outcome.signalDescriptor : undefined,
    );
  if (expected['error_bucket'] !== undefined)
    expectEqual(
      `${label}.error_bucket`,
      expected['error_bucket'],
      outcome.outcome === 'errored' ? outcome.errorBucket : undefined,
    );
  if (expected['error_category'] !== undefined)
    expectEqual(
      `${label}.error_category`,
      expected['error_category'],
      outcome.outcome === 'errored' ? outcome.errorCategory : undefined,
    );
  if (expected['reply'] !== undefined) {
    const reply = expected['reply'] as Yaml;
    assertKeys(reply, ['role', 'content', 'content_matches_template', 'content_includes'], `${label}.reply`);
    const actual = outcome.outcome === 'errored' ? outcome.reply : undefined;
    const text = typeof actual?.content === 'string' ? actual.content : '';
    if (reply['role'] !== undefined) expectEqual(`${label}.reply.role`, reply['role'], actual?.role);
    if (reply['content'] !== undefined) expectEqual(`${label}.reply.content`, reply['content'], actual?.content);
    const template = reply['content_matches_template'];
    if (template !== undefined && !text.toLowerCase().includes(String(template).toLowerCase())) {
      throw new Mismatch(
        `${label}.reply: ${JSON.stringify(text)} does not match the template ${JSON.stringify(template)}`,
      );
    }
    for (const part of (reply['content_includes'] ?? []) as string[]) {
      if (!text.includes(part))
        throw new Mismatch(`${label}.reply: ${JSON.stringify(text)} does not include ${JSON.stringify(part)}`);
    }
  }
  if (expected['final_state'] !== undefined) {
    const finalState = expected['final_state'] as Yaml;
    assertKeys(finalState, ['messages_count', 'messages_history_contains'], `${label}.final_state`);
    const messages =
      outcome.outcome === 'completed'
        ? outcome.finalState.messages
        : ((await store.load(sessionId))?.state.messages ?? []);
    if (finalState['messages_count'] !== undefined)
      expectEqual(`${label}.final_state.messages_count`, finalState['messages_count'], messages.length);
    let at = 0;
    for (const wanted of (finalState['messages_history_contains'] ?? []) as unknown[]) {
      while (at < messages.length && !contains(wanted, messages[at])) at++;
      if (at === messages.length)
        throw new Mismatch(
          `${label}.final_state.messages_history_contains: ${JSON.stringify(wanted)} is not in order in the history`,
        );
      at++;
    }
  }
}

async function runCase(testCase: Yaml): Promise<void> {
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
  const harnessSpec = (testCase['harness'] ?? {}) as Yaml;
  assertKeys(harnessSpec, ['mode', 'signal_coordinator'], 'harness');
  if (harnessSpec['mode'] !== 'sessioned') throw new Unsupported(`harness.mode ${String(harnessSpec['mode'])}`);
  if (harnessSpec['signal_coordinator'] !== undefined && harnessSpec['signal_coordinator'] !== 'in_memory')
    throw new Unsupported(`harness.signal_coordinator ${String(harnessSpec['signal_coordinator'])}`);
  const { stateSchema, initial } = buildState(testCase);
  const edges = ((testCase['edges'] ?? []) as { from: string; to: string }[]).map((e) => ({ from: e.from, to: e.to }));
  const graph = sequentialGraph({ entry: String(testCase['entry']), nodes: buildNodes(testCase), edges, stateSchema });
  const store = buildStore(testCase['session_store']);
  const harness = createChatHarness({ graph, store, initialState: initial });
  const fired = new Map<string, ChatTurnOutcome[]>();
  const signalSessions = new Map<string, string>();
  const arrivals = (testCase['signal_arrivals'] ?? []) as Yaml[];
  const deliver = async (arrival: Yaml): Promise<void> => {
    assertKeys(
      arrival,
      ['signal_id', 'signal_payload', 'expected_listener_callback', 'after_turn'],
      'signal_arrivals[]',
    );
    const signalId = String(arrival['signal_id']);
    const expected = arrival['expected_listener_callback'] as Yaml | undefined;
    const listenerName = String(expected?.['listener']);
    const before = fired.get(listenerName)?.length ?? 0;
    await harness.signal(signalId, (arrival['signal_payload'] ?? {}) as Yaml);
    if (expected === undefined) return;
    const calls = fired.get(listenerName);
    if (calls === undefined) throw new Mismatch(`listener ${listenerName} was never subscribed`);
    if (calls.length !== before + 1)
      throw new Mismatch(
        `listener ${listenerName} fired ${calls.length - before} times for signal ${signalId}, expected once`,
      );
    await checkOutcome(
      `signal_arrivals.${signalId}`,
      expected,
      calls[calls.length - 1] as ChatTurnOutcome,
      store,
      signalSessions.get(signalId) ?? '',
    );
  };
  for (const turn of (testCase['chat_turns'] ?? []) as Yaml[]) {
    assertKeys(turn, ['name', 'session_id', 'user_message', 'expected', 'subscribe_listener'], 'chat_turns[]');
    const sessionId = String(turn['session_id']);
    const listener = turn['subscribe_listener'];
    if (listener !== undefined) {
      fired.set(String(listener), []);
      harness.subscribe(sessionId, (outcome) => fired.get(String(listener))?.push(outcome));
    }
    const outcome = await harness.send(sessionId, turn['user_message'] as ChatMessage);
    if (outcome.outcome === 'suspended') signalSessions.set(outcome.signalDescriptor.signal_id, sessionId);
    await checkOutcome(
      `chat_turns.${String(turn['name'])}`,
      (turn['expected'] ?? {}) as Yaml,
      outcome,
      store,
      sessionId,
    );
    for (const arrival of arrivals.filter((a) => a['after_turn'] === turn['name'])) await deliver(arrival);
  }
  for (const arrival of arrivals.filter((a) => a['after_turn'] === undefined)) await deliver(arrival);
}

/**
 * Runs every case of every `*.yaml` fixture in a harness-chat conformance directory.
 *
 * @param dir - The directory.
 * @returns One verdict per case (`<file>/<case name>`), in file order.
 */
export async function runChatSuite(dir: string): Promise<VectorVerdict[]> {
  const verdicts: VectorVerdict[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    let doc: Yaml;
    try {
      doc = parse(readFileSync(join(dir, file), 'utf8')) as Yaml;
    } catch (error) {
      verdicts.push({ id: file, passed: false, note: `cannot read fixture: ${(error as Error).message}` });
      continue;
    }
    for (const testCase of (doc['cases'] ?? []) as Yaml[]) {
      const id = `${file.replace(/\.yaml$/, '')}/${String(testCase['name'])}`;
      try {
        await runCase(testCase);
        verdicts.push({ id, passed: true, note: 'all expectations hold' });
      } catch (error) {
        verdicts.push({ id, passed: false, note: (error as Error).message });
      }
    }
  }
  return verdicts;
}

/** Whether a directory holds harness-chat fixtures. */
export function isChatSuite(dir: string): boolean {
  return readdirSync(dir).some((f) => f.endsWith('.yaml'));
}
