/**
 * Type tests of turngate/outcome: the deliverable type flows to the caller, a literal method that
 * is neither canonical nor an alias does not compile (with the promised message), matching on an
 * outcome is exhaustive, and the public generics behave on any, never, unknown and string.
 * Negative cases use `@ts-expect-error` (checked by tsd and by TypeScript 7), each beside the
 * call that compiles.
 */
import { match } from 'ts-pattern';
import { expectAssignable, expectNotAssignable, expectType } from 'tsd';
import * as v from 'valibot';
import {
  type ContractAlias,
  type ContractDeliverable,
  type ContractMethod,
  type ContractRequiredInput,
  type ContractViolation,
  type DelegatedInput,
  type DelegationError,
  type DeliverableValue,
  defineContracts,
  delegate,
  delegateAsync,
  Outcome,
  type OutcomeError,
  type OutcomeOk,
  type PreconditionFailed,
  type ShapeValue,
  type ToolContract,
  type UnknownMethod,
  type UnknownMethodMessage,
} from 'turngate/outcome';

const tools = defineContracts({
  web_fetcher: {
    purpose: 'fetch and extract content from URLs',
    deliverable: { type: 'object', required: ['body', 'statusCode'] },
    methods: ['fetch_url', 'fetch_headers'],
    aliases: { fetch: 'fetch_url' },
    requiredInputs: ['url'],
  },
  rss_parser: {
    deliverable: v.array(v.object({ title: v.string(), link: v.string() })),
    methods: ['parse'],
    requiredInputs: ['xml'],
  },
  clock: {},
});

// The deliverable type flows to the caller: a valibot schema's output type.
const parsed = delegate(tools.rss_parser, { method: 'parse', input: { xml: '<rss/>' } }, () => Outcome.ok([]));
if (parsed.outcome.status === 'ok') expectType<{ title: string; link: string }[]>(parsed.outcome.value);
// ... and a light shape's keys, in the contract's spelling.
const fetched = delegate(tools.web_fetcher, { method: 'fetch', input: { url: 'https://a.example' } }, () =>
  Outcome.ok({ Body: 'wrong key style' }),
);
if (fetched.outcome.status === 'ok') {
  expectType<unknown>(fetched.outcome.value.body);
  expectType<unknown>(fetched.outcome.value.statusCode);
}
// No deliverable: the value is unknown, whatever the tool claims.
const ticked = delegate(tools.clock, {}, () => Outcome.ok(42));
if (ticked.outcome.status === 'ok') expectType<unknown>(ticked.outcome.value);

// The tool gets the canonical method and the required inputs, present and non-null.
delegate(tools.web_fetcher, { method: 'fetch', input: { url: 'https://a.example' } }, (call) => {
  expectType<'web_fetcher'>(call.tool);
  expectType<'fetch_url' | 'fetch_headers'>(call.method);
  expectType<NonNullable<unknown>>(call.input.url);
  return Outcome.ok({ body: '', statusCode: 200 });
});
delegate(tools.clock, {}, (call) => {
  expectType<string | undefined>(call.method);
  expectType<unknown>(call.input);
  return Outcome.ok(1);
});

// Methods: a canonical method or an alias compiles; another literal does not, and says why.
delegate(tools.web_fetcher, { method: 'fetch_headers', input: { url: 'u' } }, () => Outcome.ok({}));
// @ts-expect-error -- "unknown_method: web_fetcher has no method get_page; use fetch_"
delegate(tools.web_fetcher, { method: 'get_page', input: { url: 'u' } }, () => Outcome.ok({}));
expectType<'unknown_method: web_fetcher has no method get_page; use fetch_url'>(
  {} as UnknownMethodMessage<'web_fetcher', 'get_page', 'fetch_url'>,
);
// A method name from model output (`string`) compiles; the run-time check answers it.
declare const fromModel: string;
delegate(tools.web_fetcher, { method: fromModel, input: { url: 'u' } }, () => Outcome.ok({}));
// @ts-expect-error -- "unknown_method: the call to web_fetcher names no method"
delegate(tools.web_fetcher, { input: { url: 'u' } }, () => Outcome.ok({}));
// A request has a method and an input; a misspelled field is refused, naming it.
// @ts-expect-error -- "unknown field: inputs; a delegated request has method and input"
delegate(tools.web_fetcher, { method: 'fetch', inputs: { url: 'u' } }, () => Outcome.ok({}));
// A contract without methods takes any name, or none.
delegate(tools.clock, { method: 'now' }, () => Outcome.ok(1));

// Required inputs: present under their name or a camelCase/snake_case twin, and not empty.
const { reader } = defineContracts({ reader: { requiredInputs: ['feedUrl', 'xml'] } });
delegate(reader, { input: { feedUrl: 'https://a.example', xml: '<rss/>' } }, () => Outcome.ok(1));
delegate(reader, { input: { feed_url: 'https://a.example', xml: '<rss/>', lang: 'en' } }, () => Outcome.ok(1));
// @ts-expect-error -- "precondition_failed: reader needs input feedUrl (present, not null or empty)"
delegate(reader, { input: { feed: 'https://a.example', xml: '<rss/>' } }, () => Outcome.ok(1));
// @ts-expect-error -- "precondition_failed: reader needs input xml (present, not null or empty)"
delegate(reader, { input: { feedUrl: 'https://a.example', xml: null } }, () => Outcome.ok(1));
// @ts-expect-error -- "precondition_failed: reader needs input xml (present, not null or empty)"
delegate(reader, { input: { feedUrl: 'https://a.example', xml: '' } }, () => Outcome.ok(1));
// @ts-expect-error -- "precondition_failed: web_fetcher needs input url"
delegate(tools.web_fetcher, { method: 'fetch' }, () => Outcome.ok({}));
// An input from model output (unknown, a record, a Map) compiles; the run-time check answers it.
declare const modelInput: unknown;
declare const modelRecord: Record<string, unknown>;
delegate(reader, { input: modelInput }, () => Outcome.ok(1));
delegate(reader, { input: modelRecord }, () => Outcome.ok(1));
delegate(reader, { input: new Map([['xml', '<rss/>']]) }, () => Outcome.ok(1));
delegateAsync(reader, { input: { feedUrl: 'u', xml: 'x' } }, async () => Outcome.ok(1));
// @ts-expect-error -- "precondition_failed: reader needs input "
delegateAsync(reader, { input: {} }, async () => Outcome.ok(1));

// The tool must return an Outcome; an asynchronous one goes through delegateAsync.
// @ts-expect-error -- "contract_violation: not_an_outcome: run returns Outcome.ok(value) or Outcome.error"
delegate(tools.clock, {}, () => 42);
// @ts-expect-error -- "contract_violation: not_an_outcome: run returned a promise; delegate it with delegateAsync"
delegate(tools.clock, {}, async () => Outcome.ok(1));
const later = delegateAsync(tools.rss_parser, { method: 'parse', input: { xml: '<rss/>' } }, async () =>
  Outcome.ok([]),
);
expectType<Promise<{ title: string; link: string }[] | undefined>>(
  later.then(({ outcome }) => (outcome.status === 'ok' ? outcome.value : undefined)),
);

// Matching is exhaustive over ok, the boundary's errors and the tool's own errors.
const feed = delegate(tools.rss_parser, { method: 'parse', input: { xml: '<rss/>' } }, () =>
  Math.random() > 0.5 ? Outcome.ok([]) : Outcome.error('feed_malformed', 'not RSS'),
);
const line = match(feed.outcome)
  .with({ status: 'ok' }, ({ value }) => `${value.length} items`)
  .with({ status: 'error', errorType: 'contract_violation' }, ({ details }) => details.expectedKeys.join(', '))
  .with({ status: 'error', errorType: 'precondition_failed' }, ({ details }) => details.requiredInputs.join(', '))
  .with({ status: 'error', errorType: 'unknown_method' }, ({ details }) => details.methods.join(', '))
  .with({ status: 'error', errorType: 'feed_malformed' }, ({ message }) => message)
  .exhaustive();
expectType<string>(line);
match(feed.outcome)
  .with({ status: 'ok' }, () => 1)
  .with({ status: 'error', errorType: 'contract_violation' }, () => 2)
  .with({ status: 'error', errorType: 'precondition_failed' }, () => 3)
  .with({ status: 'error', errorType: 'unknown_method' }, () => 4)
  // @ts-expect-error -- "NonExhaustiveError<OutcomeError<"feed_malformed""
  .exhaustive();
declare const plain: Outcome<number>;
match(plain)
  .with({ status: 'ok' }, () => 1)
  // @ts-expect-error -- "NonExhaustiveError<OutcomeError<string"
  .exhaustive();
switch (plain.status) {
  case 'ok':
    expectType<number>(plain.value);
    break;
  case 'error':
    expectType<string>(plain.errorType);
    break;
  default:
    expectType<never>(plain);
}

// The boundary's own errors follow what the contract declares.
expectType<ContractViolation | PreconditionFailed | UnknownMethod>({} as DelegationError<typeof tools.web_fetcher>);
expectType<ContractViolation>({} as DelegationError<typeof tools.clock>);
// A contract typed only as ToolContract may declare methods and inputs: every boundary error.
expectType<ContractViolation | PreconditionFailed | UnknownMethod>({} as DelegationError<ToolContract>);
const { empty } = defineContracts({ empty: { methods: [], requiredInputs: [] } });
expectType<ContractViolation>({} as DelegationError<typeof empty>);
delegate(empty, {}, () => Outcome.ok(1));
delegate(empty, { method: 'any_name' }, () => Outcome.ok(1));

// Contracts: a field a contract does not have is refused, naming it.
defineContracts({ fetcher: { purpose: 'fetch pages', methods: ['fetch_url'] } });
// @ts-expect-error -- "unknown field: fetcher.purpse; a contract has purpose, deliverable, methods, aliases, requiredInputs"
defineContracts({ fetcher: { purpse: 'fetch pages', methods: ['fetch_url'] } });
defineContracts({ parser: { requiredInputs: ['xml'] } });
// @ts-expect-error -- "unknown field: parser.requiredInput;"
defineContracts({ parser: { methods: ['parse'], requiredInput: ['xml'] } });

// Contracts: aliases must name a canonical method.
defineContracts({ ok: { methods: ['fetch_url'], aliases: { fetch: 'fetch_url' } } });
// @ts-expect-error -- "an alias names one of the canonical methods"
defineContracts({ broken: { methods: ['fetch_url'], aliases: { fetch: 'fetch_uri' } } });
expectType<'fetch_url' | 'fetch_headers'>({} as ContractMethod<typeof tools.web_fetcher>);
expectType<'fetch'>({} as ContractAlias<typeof tools.web_fetcher>);
expectType<'url'>({} as ContractRequiredInput<typeof tools.web_fetcher>);
expectType<string>({} as ContractMethod<ToolContract>);
expectType<never>({} as ContractAlias<ToolContract>);
expectType<never>({} as ContractRequiredInput<ToolContract>);
expectType<unknown>({} as ContractDeliverable<ToolContract>);

// Outcome on any, never, unknown and string.
// biome-ignore lint/suspicious/noExplicitAny: the public generic on an `any` input is what this line tests
expectType<OutcomeOk<any> | OutcomeError>({} as Outcome<any>);
expectType<OutcomeOk<never> | OutcomeError>({} as Outcome<never>);
expectType<OutcomeOk<unknown> | OutcomeError>({} as Outcome<unknown>);
expectType<OutcomeOk<string> | OutcomeError>({} as Outcome<string>);
expectType<OutcomeOk<string>>({} as Outcome<string, never>);
expectAssignable<Outcome<string>>(Outcome.ok('a'));
expectNotAssignable<Outcome<string>>(Outcome.ok(1));
expectType<OutcomeError<'timeout', { seconds: number }>>(Outcome.error('timeout', 'slow', { details: { seconds: 5 } }));
const failed: Outcome<string> = { status: 'error', errorType: 'm', message: 'm', details: {}, retryable: false };
void failed;
// @ts-expect-error -- "Property 'errorType' is missing"
const untyped: Outcome<string> = { status: 'error', message: 'm', details: {}, retryable: false };
void untyped;

// ShapeValue, DeliverableValue and DelegatedInput on any, never, unknown and string.
expectType<unknown>({} as ShapeValue<unknown>);
expectType<unknown>({} as ShapeValue<string>);
expectType<never>({} as ShapeValue<never>);
expectType<readonly unknown[]>({} as ShapeValue<{ type: 'array' }>);
expectType<readonly ({ readonly a: unknown } & { readonly [key: string]: unknown })[]>(
  {} as ShapeValue<{ type: 'array'; items: { type: 'object'; required: ['a'] } }>,
);
expectAssignable<ShapeValue<{ type: 'object'; required: ['a'] }>>({ a: 1, b: 2 });
// @ts-expect-error -- "Property 'a' is missing"
expectAssignable<ShapeValue<{ type: 'object'; required: ['a'] }>>({ b: 2 });
expectType<string>({} as DeliverableValue<v.StringSchema<undefined>>);
expectType<never>({} as DeliverableValue<never>);
expectType<unknown>({} as DeliverableValue<unknown>);
expectType<unknown>({} as DelegatedInput<never>);
expectAssignable<DelegatedInput<'xml'>>({ xml: '<rss/>', lang: 'en' });
// @ts-expect-error -- "Type 'null' is not assignable"
expectAssignable<DelegatedInput<'xml'>>({ xml: null });
expectAssignable<DelegatedInput<string>>({ anything: 1 });
// biome-ignore lint/suspicious/noExplicitAny: the public generics on an `any` input are what these lines test
type Any = any;
expectType<unknown>({} as ShapeValue<Any>);
expectType<Any>({} as DeliverableValue<Any>);
expectType<DelegatedInput<string>>({} as DelegatedInput<Any>);
expectType<string>({} as ContractMethod<Any>);
expectType<ContractViolation | PreconditionFailed | UnknownMethod>({} as DelegationError<Any>);
expectType<ContractViolation>({} as DelegationError<never>);
