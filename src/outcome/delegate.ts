/**
 * Delegation across a checked boundary: the call's method is resolved, its required inputs are
 * checked, and a successful outcome's value is checked against the deliverable before the caller
 * sees it. Every delegation yields a validation record. What it takes and gives: delegation.ts.
 *
 * Source: ADR 0014, Decision §1-4; Rollout Phase 1 (violation metadata for repairability).
 *
 * @module
 */
import { isBlank } from '../canonical/index.ts';
import { describeThrown } from '../internal/display.ts';
import { deepFreeze } from '../internal/freeze.ts';
import { isPromiseLike } from '../internal/promise.ts';
import { resolveMethod, validateWith } from '../typestate/index.ts';
import { unknownMethodDetail } from '../typestate/internal.ts';
import { type CompiledContract, compiledContract, type ToolContract } from './contract.ts';
import type {
  AliasUse,
  AnyOutcome,
  ContractViolationDetails,
  DelegatedCall,
  Delegation,
  DelegationOf,
  PreconditionFailed,
  PreconditionFailedDetails,
  UnknownMethod,
  UnknownMethodDetails,
  ValidationRecord,
} from './delegation.ts';
import { shapeOf } from './keys.ts';
import { isOutcome, Outcome } from './outcome.ts';
import type { DelegationRequestCheck, DelegationRequestShape, OutcomeCheck } from './request-check.ts';
import { checkShape, keysOf, type Mismatch, type MismatchFocus, rootFocus } from './shape-check.ts';

const MESSAGE_MISMATCHES = 5;

function label(tool: string, method: string | null): string {
  return method === null ? tool : `${tool}.${method}`;
}

/** Rules whose message does not name where it applies, so a listed mismatch starts with its path. */
const LOCATED: ReadonlySet<Mismatch['rule']> = new Set(['shape', 'missing_key', 'conflicting_keys', 'schema']);

function listed(mismatch: readonly Mismatch[]): string {
  const shown = mismatch
    .slice(0, MESSAGE_MISMATCHES)
    .map((entry) => (entry.path !== '' && LOCATED.has(entry.rule) ? `${entry.path}: ${entry.message}` : entry.message));
  const more = mismatch.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

function emptiness(value: unknown): string | undefined {
  if (value === undefined) return 'is undefined';
  if (value === null) return 'is null';
  if (typeof value === 'string' && isBlank(value)) return value === '' ? 'is an empty string' : 'is a blank string';
  if (Array.isArray(value) && value.length === 0) return 'is an empty array';
  if (value instanceof Map && value.size === 0) return 'is an empty Map';
  if (value instanceof Set && value.size === 0) return 'is an empty Set';
  return undefined;
}

interface Boundary {
  readonly contract: ToolContract;
  readonly method: string | null;
  readonly aliases: AliasUse[];
}

function record(
  boundary: Boundary,
  result: ValidationRecord['result'],
  errorType: string | null,
  deliverableChecked: boolean,
  mismatch: readonly Mismatch[],
): ValidationRecord {
  return deepFreeze({
    tool: boundary.contract.tool,
    method: boundary.method,
    contract: boundary.contract.digest,
    result,
    errorType,
    deliverableChecked,
    aliases: boundary.aliases,
    mismatch: [...mismatch],
  });
}

function violation(
  boundary: Boundary,
  focus: MismatchFocus,
  mismatch: readonly Mismatch[],
  deliverableChecked: boolean,
): Delegation<never> {
  const { tool } = boundary.contract;
  const details: ContractViolationDetails = { tool, method: boundary.method, ...focus, mismatch: [...mismatch] };
  const outcome = Outcome.error(
    'contract_violation',
    `${label(tool, boundary.method)} delivered a value that violates its contract: ${listed(mismatch)}`,
    { details: deepFreeze(details) },
  );
  return {
    outcome,
    record: record(boundary, 'contract_violation', 'contract_violation', deliverableChecked, mismatch),
  };
}

function unreadable(what: string, thrown: unknown): Mismatch {
  return { path: '', rule: 'unreadable', message: `reading ${what} threw ${describeThrown(thrown)}` };
}

/**
 * Checks what the tool returned. A getter or Proxy trap that throws while the boundary reads it
 * is a `contract_violation` (rule `unreadable`), never an exception out of the boundary.
 */
function delivered(boundary: Boundary, returned: unknown): Delegation<unknown> {
  const aliasesBefore = boundary.aliases.length;
  try {
    return deliveredChecked(boundary, returned);
  } catch (thrown) {
    boundary.aliases.length = aliasesBefore;
    const focus: MismatchFocus = {
      path: '',
      expectedShape: 'outcome',
      actualShape: 'unreadable',
      expectedKeys: [],
      actualKeys: [],
    };
    return violation(boundary, focus, [unreadable('the returned value', thrown)], false);
  }
}

function deliveredChecked(boundary: Boundary, returned: unknown): Delegation<unknown> {
  if (!isOutcome(returned)) {
    const mismatch: Mismatch[] = [
      {
        path: '',
        rule: 'not_an_outcome',
        message: `expected an Outcome ({ status: 'ok', value } or { status: 'error', errorType, message, details, retryable }), got ${shapeOf(returned)}`,
      },
    ];
    const focus: MismatchFocus = {
      path: '',
      expectedShape: 'outcome',
      actualShape: shapeOf(returned),
      expectedKeys: ['status'],
      actualKeys: keysOf(returned),
    };
    return violation(boundary, focus, mismatch, false);
  }
  if (returned.status === 'error') {
    return {
      outcome: returned,
      record: record(boundary, 'producer_error', returned.errorType, false, []),
    };
  }
  const deliverable = compiledContract(boundary.contract).deliverable;
  if (deliverable === undefined) return { outcome: returned, record: record(boundary, 'ok', null, false, []) };
  const given = returned.value; // read once: a getter may answer differently each time
  const checked = checkShape(deliverable, given, 'deliverable_key');
  boundary.aliases.push(...checked.aliases);
  if (checked.mismatch.length > 0)
    return violation(boundary, checked.focus ?? rootFocus(deliverable, given), checked.mismatch, true);
  let value = checked.value;
  if (deliverable.schema !== undefined) {
    const validated = validateWith(deliverable.schema, value);
    if (!validated.ok) {
      const mismatch = validated.failures.map(
        (issue): Mismatch => ({ path: issue.path, rule: 'schema', message: issue.message }),
      );
      return violation(boundary, rootFocus(deliverable, given), mismatch, true);
    }
    value = validated.value;
  }
  return {
    outcome: value === given ? returned : Outcome.ok(value),
    record: record(boundary, 'ok', null, true, []),
  };
}

/** What the checks before the tool runs decide: a refusal, or the call to make. */
type Entered =
  | { readonly refused: Delegation<never, UnknownMethod | PreconditionFailed> }
  | { readonly boundary: Boundary; readonly call: object };

/**
 * The boundary's checks before the tool runs: the method, then the required inputs. A getter or
 * Proxy trap in the request that throws while they read it is a `precondition_failed` (rule
 * `unreadable`); the tool is not called.
 */
function enter(contract: ToolContract, request: { readonly method?: unknown; readonly input?: unknown }): Entered {
  const checks = compiledContract(contract);
  try {
    return enterChecked(contract, checks, request);
  } catch (thrown) {
    const mismatch = [unreadable("the call's request", thrown)];
    const details: PreconditionFailedDetails = {
      tool: contract.tool,
      method: null,
      requiredInputs: contract.description.requiredInputs,
      mismatch,
    };
    return {
      refused: {
        outcome: Outcome.error('precondition_failed', `${contract.tool} was not called: ${listed(mismatch)}`, {
          details: deepFreeze(details),
        }),
        record: record(
          { contract, method: null, aliases: [] },
          'precondition_failed',
          'precondition_failed',
          false,
          mismatch,
        ),
      },
    };
  }
}

function enterChecked(
  contract: ToolContract,
  checks: CompiledContract,
  request: { readonly method?: unknown; readonly input?: unknown },
): Entered {
  const resolution = resolveMethod(
    contract.description,
    typeof request.method === 'string' ? request.method : undefined,
  );
  if (resolution.status === 'unknown') {
    const message = unknownMethodDetail(contract.tool, resolution);
    const mismatch: Mismatch[] = [{ path: 'method', rule: 'unknown_method', message }];
    const details: UnknownMethodDetails = {
      tool: contract.tool,
      method: resolution.called ?? null,
      methods: resolution.methods,
    };
    const boundary: Boundary = { contract, method: null, aliases: [] };
    return {
      refused: {
        outcome: Outcome.error('unknown_method', message, { details: deepFreeze(details) }),
        record: record(boundary, 'unknown_method', 'unknown_method', false, mismatch),
      },
    };
  }
  const boundary: Boundary = {
    contract,
    method: resolution.method ?? null,
    aliases: resolution.alias === undefined ? [] : [resolution.alias],
  };
  let input: unknown = request.input;
  if (checks.inputs !== undefined) {
    const checked = checkShape(checks.inputs, input, 'input_key');
    boundary.aliases.push(...checked.aliases);
    const mismatch = [...checked.mismatch];
    if (mismatch.length === 0) {
      for (const name of contract.description.requiredInputs) {
        const empty = emptiness(Reflect.get(checked.value as object, name));
        if (empty !== undefined)
          mismatch.push({
            path: name,
            rule: 'empty_input',
            message: `required input ${JSON.stringify(name)} ${empty}`,
          });
      }
    }
    if (mismatch.length > 0) {
      const details: PreconditionFailedDetails = {
        tool: contract.tool,
        method: boundary.method,
        requiredInputs: contract.description.requiredInputs,
        mismatch,
      };
      return {
        refused: {
          outcome: Outcome.error(
            'precondition_failed',
            `${label(contract.tool, boundary.method)} was not called: ${listed(mismatch)}`,
            { details: deepFreeze(details) },
          ),
          record: record(boundary, 'precondition_failed', 'precondition_failed', false, mismatch),
        },
      };
    }
    input = checked.value;
  }
  return { boundary, call: { tool: contract.tool, method: resolution.method, input } };
}

/**
 * Delegates a call to a contracted tool and checks the boundary both ways (ADR 0014):
 *
 * 1. The method: an alias resolves to its canonical method (recorded); a name that is neither
 *    is `unknown_method`, naming the canonical methods. The tool is not called.
 * 2. The required inputs: absent, `null`, `undefined`, a blank string or an empty array, `Map`
 *    or `Set` is `precondition_failed`, never an empty success. The tool is not called.
 *    Inputs are found by tolerant key equivalence and handed on in the contract's spelling.
 * 3. The tool runs (`run`) and returns an `Outcome`. Its own errors pass through unchanged;
 *    anything that is not an `Outcome` (a promise included: use {@link delegateAsync}) is a
 *    `contract_violation`.
 * 4. An `ok` value is checked against the deliverable: every contract key is found as the same
 *    string key, a `Symbol.for(name)` key, a `Map` entry or a camelCase/snake_case twin, and
 *    the value is handed on in the contract's spelling (a new plain object only when a key was
 *    renamed); then a schema deliverable validates it and its output is handed on. A mismatch
 *    is a `contract_violation` carrying `expectedShape`, `actualShape`, `expectedKeys`,
 *    `actualKeys`, `mismatch`, the tool and the method.
 *
 * An error thrown by `run` propagates; the boundary adds none of its own.
 *
 * Source: ADR 0014, Decision §1-4.
 *
 * @param contract - From `defineContracts`.
 * @param request - The method (required when the contract declares methods) and the input.
 * @param run - Runs the tool with the canonical method and the checked input; returns an `Outcome`.
 * @returns The outcome in the contract's spelling, and its validation record.
 * @throws TypeError when `contract` was not made by `defineContracts`.
 * @example
 * ```ts
 * import { defineContracts, delegate, Outcome } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({
 *   web_fetcher: {
 *     deliverable: { type: 'object', required: ['body', 'statusCode'] },
 *     methods: ['fetch_url'],
 *     aliases: { fetch: 'fetch_url' },
 *     requiredInputs: ['url'],
 *   },
 * });
 * const fetched = delegate(web_fetcher, { method: 'fetch', input: { url: 'https://news.example/rss' } }, () =>
 *   Outcome.ok({ [Symbol.for('body')]: '<rss/>', status_code: 200 }),
 * );
 * if (fetched.outcome.status === 'ok') fetched.outcome.value.body; //=> '<rss/>'
 * fetched.record.aliases.map((alias) => (alias.kind === 'method' ? alias.alias : alias.spelling));
 * //=> ['fetch', 'body', 'status_code']
 * ```
 */
export function delegate<TContract extends ToolContract, const TRequest extends DelegationRequestShape, TReturned>(
  contract: TContract,
  request: DelegationRequestCheck<TContract, TRequest>,
  run: (call: DelegatedCall<TContract>) => OutcomeCheck<TReturned>,
): DelegationOf<TContract, Extract<TReturned, AnyOutcome>> {
  const entered = enter(contract, request as DelegationRequestShape);
  // biome-ignore lint/plugin: enter() refuses with unknown_method only when the contract declares methods and with precondition_failed only when it declares inputs, which is when DelegationError<TContract> has them
  if ('refused' in entered) return entered.refused as never;
  // biome-ignore lint/plugin: enter() checked the method and input against the contract DelegatedCall is derived from
  const returned: unknown = run(entered.call as never);
  if (isPromiseLike(returned)) {
    // biome-ignore lint/plugin: the violation arm is one of DelegationError<TContract>
    return violation(
      entered.boundary,
      { path: '', expectedShape: 'outcome', actualShape: 'promise', expectedKeys: ['status'], actualKeys: [] },
      [
        {
          path: '',
          rule: 'not_an_outcome',
          message: 'the tool returned a promise; delegate an asynchronous tool with delegateAsync',
        },
      ],
      false,
    ) as never;
  }
  // biome-ignore lint/plugin: delivered() checked the value against the deliverable ContractDeliverable<TContract> is derived from
  return delivered(entered.boundary, returned) as never;
}

/**
 * {@link delegate} for a tool that runs asynchronously: the same checks, in the same order, and
 * always a promise (the method and input checks settle it before the tool starts).
 *
 * Source: ADR 0014, Decision §1-4.
 *
 * @param contract - From `defineContracts`.
 * @param request - The method and the input.
 * @param run - Runs the tool; returns an `Outcome` or a promise of one.
 * @returns A promise of the outcome and its validation record; rejected when `run` throws or
 *   rejects, and with a TypeError when `contract` was not made by `defineContracts`.
 * @example
 * ```ts
 * import { defineContracts, delegateAsync, Outcome } from 'turngate/outcome';
 * const { web_fetcher } = defineContracts({ web_fetcher: { deliverable: { type: 'object', required: ['body'] }, requiredInputs: ['url'] } });
 * const fetched = await delegateAsync(web_fetcher, { input: { url: 'https://news.example/rss' } }, async ({ input }) =>
 *   Outcome.ok({ body: `<rss source="${String(input.url)}"/>` }),
 * );
 * fetched.record.result; //=> 'ok'
 * ```
 */
export async function delegateAsync<
  TContract extends ToolContract,
  const TRequest extends DelegationRequestShape,
  TReturned extends AnyOutcome,
>(
  contract: TContract,
  request: DelegationRequestCheck<TContract, TRequest>,
  run: (call: DelegatedCall<TContract>) => TReturned | PromiseLike<TReturned>,
): Promise<DelegationOf<TContract, TReturned>> {
  const entered = enter(contract, request as DelegationRequestShape);
  // biome-ignore lint/plugin: enter() refuses with unknown_method only when the contract declares methods and with precondition_failed only when it declares inputs, which is when DelegationError<TContract> has them
  if ('refused' in entered) return entered.refused as never;
  // biome-ignore lint/plugin: enter() checked the method and input against the contract DelegatedCall is derived from
  const pending: unknown = run(entered.call as never);
  // Only a real thenable is awaited (its rejection is the tool's own and propagates); anything
  // else, a Proxy with a throwing `then` included, goes to the check as it is.
  const returned = isPromiseLike(pending) ? await pending : pending;
  // biome-ignore lint/plugin: delivered() checked the value against the deliverable ContractDeliverable<TContract> is derived from
  return delivered(entered.boundary, returned) as never;
}
