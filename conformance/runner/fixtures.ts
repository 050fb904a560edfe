/**
 * The shapes of the conformance fixtures, as valibot schemas, and the one error a malformed
 * fixture gives: premath-format suites (`manifest.json`, `<id>/case.json`, `<id>/expect.json`),
 * harness-chat YAML fixtures (`cases:`), and transcript cases (`<format>/<case>.json`).
 *
 * A schema describes the fields the runners read, with their types; a field the runner does not
 * know is kept (loose objects), so the harness-chat runner can still fail a case on a directive
 * it does not support (`harness_primitive_missing`) instead of calling the fixture malformed.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { parse as parseYaml } from 'yaml';
import { JsonNumber, type JsonValue, parseJson } from '../../src/canonical/index.ts';
import { TRANSCRIPT_FORMATS } from '../../src/check/stop-reasons.ts';
import { OPENAI_CHAT_DIALECTS } from '../../src/transcripts/core/dialects.ts';

/**
 * A fixture that does not have the shape its suite needs: the `file`, the `field` in it
 * (`cases[0].chat_turns[1].session_id`; empty for the whole document) and the `problem` (what
 * was expected and what the field holds, or why the text does not parse). Its message is one
 * line: `malformed fixture <file>: <field>: <problem>`.
 */
export class FixtureError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(
      `malformed fixture ${file}: ${field === '' ? '(the document)' : field}: ${problem}`.replace(/\s*\n\s*/g, ' '),
    );
    this.name = 'FixtureError';
  }
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `cases[0].nodes.greet` from a valibot issue path. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  let path = '';
  for (const item of issue.path ?? []) {
    const key: unknown = item.key;
    if (typeof key === 'number') path += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]*$/.test(key)) path += path === '' ? key : `.${key}`;
    else path += `[${JSON.stringify(String(key))}]`;
  }
  return path;
}

/** What a valibot issue says was expected, and what the fixture holds instead. */
function problemOf(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.at(-1)?.key;
  if (issue.input === undefined && typeof key === 'string' && issue.expected === `"${key}"`) {
    return 'missing (a required field)';
  }
  if (issue.type === 'strict_object' && issue.expected === 'never') return 'not a field of this fixture';
  const received = issue.input instanceof JsonNumber ? issue.input.raw : issue.received;
  // a custom check's message says what it expects
  if (issue.type === 'custom' || issue.expected === null) return `${issue.message}, got ${received}`;
  return `expected ${issue.expected}, got ${received}`;
}

/**
 * Parses `value` (the content of `file`) with `schema`, or throws a {@link FixtureError} that
 * names the first field that does not fit.
 */
export function parseFixture<const Schema extends v.GenericSchema>(
  schema: Schema,
  value: unknown,
  file: string,
): v.InferOutput<Schema> {
  const parsed = v.safeParse(schema, value, { abortEarly: true });
  if (parsed.success) return parsed.output;
  const [issue] = parsed.issues;
  throw new FixtureError(file, pathOf(issue), problemOf(issue));
}

/** Reads a file's text, or throws a {@link FixtureError}. */
function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new FixtureError(file, '', `cannot be read (${messageOf(error)})`);
  }
}

/** Reads a fixture file with `parse` (named `format` in the error) and parses the value with `schema`. */
function readFixture<const Schema extends v.GenericSchema>(
  schema: Schema,
  file: string,
  format: 'JSON' | 'YAML',
  parse: (text: string) => unknown,
): v.InferOutput<Schema> {
  let value: unknown;
  const text = readText(file);
  try {
    value = parse(text);
  } catch (error) {
    throw new FixtureError(file, '', `not ${format} (${messageOf(error).split('\n')[0]})`);
  }
  return parseFixture(schema, value, file);
}

/** Reads a JSON fixture losslessly (numbers as JsonNumber, as the join check reads them) and parses it with `schema`. */
export function readPremathJson<const Schema extends v.GenericSchema>(
  schema: Schema,
  file: string,
): v.InferOutput<Schema> {
  return readFixture(schema, file, 'JSON', parseJson);
}

/** Reads a JSON fixture with JSON.parse and parses it with `schema`. */
export function readJsonFixture<const Schema extends v.GenericSchema>(
  schema: Schema,
  file: string,
): v.InferOutput<Schema> {
  return readFixture(schema, file, 'JSON', JSON.parse);
}

/** Reads a YAML fixture and parses it with `schema`. */
export function readYamlFixture<const Schema extends v.GenericSchema>(
  schema: Schema,
  file: string,
): v.InferOutput<Schema> {
  return readFixture(schema, file, 'YAML', parseYaml);
}

// premath's harness-typestate format (and our vectors in it) ------------------------------------

/** The format version, `1` (read losslessly: a JsonNumber). */
const SchemaVersion = v.custom<JsonNumber>(
  (input) => input instanceof JsonNumber && input.raw === '1',
  'expected 1 (the format version)',
);

const FailureClasses = v.array(v.string());

/** A JSON value as parseJson returns it (numbers as JsonNumber). */
const JsonValueSchema: v.GenericSchema<JsonValue> = v.lazy(() =>
  v.union([
    v.null(),
    v.boolean(),
    v.string(),
    v.number(),
    v.bigint(),
    v.instance(JsonNumber),
    v.array(JsonValueSchema),
    v.record(v.string(), JsonValueSchema),
  ]),
);

/** A JSON object. */
const JsonObjectSchema = v.record(v.string(), JsonValueSchema);

/** `manifest.json`: the vector ids, in order. */
export const ManifestSchema = v.looseObject({
  schema: SchemaVersion,
  suiteId: v.optional(v.string()),
  vectors: v.array(v.pipe(v.string(), v.minLength(1))),
});

/** `<id>/case.json`: the join-check input (any JSON: the check itself refuses a malformed one). */
export const PremathCaseSchema = v.looseObject({
  schema: SchemaVersion,
  suiteId: v.optional(v.string()),
  vectorId: v.optional(v.string()),
  input: v.custom<unknown>((input) => input !== undefined, 'expected an `input` value'),
});

/**
 * `<id>/expect.json`: `result`, `expectedFailureClasses`, `expectedJoinClosed`; ours may add
 * `expectedInvalidField`, `expectedNormalized`, `expectedExtended` and `checkedClasses`.
 */
export const PremathExpectSchema = v.looseObject({
  schema: SchemaVersion,
  result: v.picklist(['accepted', 'rejected', 'invalid']),
  expectedFailureClasses: FailureClasses,
  expectedJoinClosed: v.boolean(),
  expectedInvalidField: v.optional(v.string()),
  expectedNormalized: v.optional(JsonObjectSchema),
  expectedExtended: v.optional(JsonObjectSchema),
  checkedClasses: v.optional(FailureClasses),
});

export type PremathExpect = v.InferOutput<typeof PremathExpectSchema>;

// OpenArmature harness-chat YAML fixtures -------------------------------------------------------

/** A YAML mapping. */
const Mapping = v.record(v.string(), v.unknown());

const StateFieldSchema = v.looseObject({
  type: v.string(),
  reducer: v.optional(v.string()),
  default: v.optional(v.unknown()),
});

const NodeSchema = v.looseObject({
  update: v.optional(Mapping),
  suspend_with_descriptor: v.optional(v.looseObject({ signal_id: v.string(), metadata: v.optional(Mapping) })),
  raises: v.optional(v.looseObject({ category: v.string(), message: v.optional(v.string()) })),
});

const SessionStoreSchema = v.union([
  v.string(),
  v.looseObject({
    type: v.string(),
    behavior: v.optional(v.looseObject({ load_raises: v.optional(v.string()), save_raises: v.optional(v.string()) })),
  }),
]);

const ReplyExpectationSchema = v.looseObject({
  role: v.optional(v.string()),
  content: v.optional(v.unknown()),
  content_matches_template: v.optional(v.string()),
  content_includes: v.optional(v.array(v.string())),
});

const FinalStateExpectationSchema = v.looseObject({
  messages_count: v.optional(v.pipe(v.number(), v.integer())),
  messages_history_contains: v.optional(v.array(v.unknown())),
});

/** What a turn's outcome (or a listener's) must hold. */
export const ChatExpectationSchema = v.looseObject({
  outcome: v.string(),
  listener: v.optional(v.string()),
  replies: v.optional(v.array(v.unknown())),
  error_bucket: v.optional(v.string()),
  error_category: v.optional(v.string()),
  reply: v.optional(ReplyExpectationSchema),
  pending_messages: v.optional(v.array(v.unknown())),
  signal_descriptor: v.optional(Mapping),
  final_state: v.optional(FinalStateExpectationSchema),
  dispatch_path: v.optional(v.string()),
});

export type ChatExpectation = v.InferOutput<typeof ChatExpectationSchema>;

export const ChatTurnSchema = v.looseObject({
  name: v.string(),
  session_id: v.string(),
  // sent as written: the harness validates it (a fixture may send a malformed message on purpose)
  user_message: v.unknown(),
  expected: ChatExpectationSchema,
  subscribe_listener: v.optional(v.string()),
});

const SignalArrivalSchema = v.looseObject({
  signal_id: v.string(),
  signal_payload: v.optional(Mapping),
  expected_listener_callback: v.optional(ChatExpectationSchema),
  after_turn: v.optional(v.string()),
});

/** One case of a harness-chat fixture. */
export const ChatCaseSchema = v.looseObject({
  name: v.string(),
  description: v.optional(v.string()),
  harness: v.optional(v.looseObject({ mode: v.optional(v.string()), signal_coordinator: v.optional(v.string()) })),
  state: v.optional(v.looseObject({ fields: v.optional(v.record(v.string(), StateFieldSchema)) })),
  entry: v.string(),
  nodes: v.optional(v.record(v.string(), NodeSchema)),
  edges: v.optional(v.array(v.looseObject({ from: v.string(), to: v.string() }))),
  session_store: v.optional(SessionStoreSchema),
  chat_turns: v.optional(v.array(ChatTurnSchema)),
  signal_arrivals: v.optional(v.array(SignalArrivalSchema)),
  invariants: v.optional(Mapping),
});

export type ChatCase = v.InferOutput<typeof ChatCaseSchema>;

/** A harness-chat fixture file: `cases:`. */
export const ChatFixtureSchema = v.looseObject({ cases: v.array(ChatCaseSchema) });

// transcript cases ------------------------------------------------------------------------------

/** One failure a transcript case expects. */
export const ExpectedFailureSchema = v.strictObject({
  class: v.string(),
  rule: v.string(),
  ids: v.array(v.string()),
  at: v.optional(v.string()),
});

/** `<format>/<case>.json`: the input, the expected result and its source. */
export const TranscriptCaseSchema = v.looseObject({
  format: v.picklist(TRANSCRIPT_FORMATS),
  description: v.pipe(v.string(), v.minLength(1)),
  source: v.pipe(v.string(), v.minLength(1)),
  sourceKind: v.picklist(['doc', 'observed']),
  expect: v.optional(v.picklist(['sendable', 'received'])),
  /** `openai-chat` only: the provider dialect whose rules run too. */
  dialect: v.optional(v.picklist(OPENAI_CHAT_DIALECTS)),
  input: v.unknown(),
  result: v.picklist(['accepted', 'rejected', 'invalid']),
  failures: v.optional(v.array(ExpectedFailureSchema)),
  invalidAt: v.optional(v.string()),
  openToolCalls: v.optional(v.array(v.string())),
});
