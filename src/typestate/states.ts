/**
 * The turn states and the transition functions that mint them:
 * `CallSpec -> ToolRequests -> ToolResults -> ToolUse -> JoinClosed`.
 *
 * Every transition validates by assembling the evidence so far and running it through the one
 * join check (`checkDecoded`), keeping the failure classes that apply at its stage; no rule of
 * the join is written twice.
 *
 * @module
 */
import { joinCheck } from '../check/check.ts';
import type { JoinCheckReport } from '../check/types.ts';
import type { EvidenceInput, JoinCheckInputWire } from '../evidence/index.ts';
import type { Failure, FailureClass, Result } from '../failures/index.ts';
import type { NormalizedCallSpec, NormalizedEvidence, ToolUseDisposition } from '../normalize/index.ts';
import { deepFreeze, mint, mintedState, type Branded, type TurnStateName } from './brand.ts';
import { TypestateError } from './errors.ts';
import {
  formatIssues,
  validateWith,
  type ToolDefinitions,
  type ToolInput,
  type ToolName,
  type ToolOutput,
  type ToolRegistry,
} from './tools.ts';

/**
 * The action modes. Source: HARNESS-TYPESTATE §7; TOOL-CALLING-HARNESS-TYPESTATE §5.
 *
 * @example
 * ```ts
 * import type { ActionMode } from 'turngate';
 * declare const value: ActionMode;
 * void value;
 * ```
 */
export type ActionMode = 'code' | 'json' | 'text';

/**
 * A CallSpec: the seed-000 §3.1 binding fields, normalized, with a known action mode. `TMode`
 * is the action mode as a literal type when the input gave one, so the builder can type the
 * mode's rules.
 *
 * @example
 * ```ts
 * import { turn, type CallSpec, type ToolRegistry } from 'turngate';
 * declare const spec: CallSpec<'json'>;
 * declare const tools: ToolRegistry;
 * turn(spec, tools); // json mode: at most one request
 * ```
 */
export type CallSpec<TMode extends ActionMode = ActionMode> = Branded<
  'CallSpec',
  { readonly spec: NormalizedCallSpec & { readonly actionMode: TMode } }
>;

/**
 * One requested tool call, typed by its tool.
 *
 * @example
 * ```ts
 * import type { ToolRequest } from 'turngate';
 * type Example = ToolRequest<never, never>;
 * ```
 */
export interface ToolRequest<TTools extends ToolDefinitions, TName extends ToolName<TTools> = ToolName<TTools>> {
  /** The tool call id (from the model, or a literal in scripted turns). */
  readonly toolCallId: string;
  /** The tool. */
  readonly toolName: TName;
  /** The tool input, as its input schema returned it. */
  readonly input: ToolInput<TTools, TName>;
  /** The caller (e.g. a `code_execution` block id), when the call was made programmatically. */
  readonly callerId?: string;
}

/**
 * Any request of a registry: a union discriminated on `toolName`.
 *
 * @example
 * ```ts
 * import type { AnyToolRequest } from 'turngate';
 * type Example = AnyToolRequest<never>;
 * ```
 */
export type AnyToolRequest<TTools extends ToolDefinitions> = {
  [TName in ToolName<TTools>]: ToolRequest<TTools, TName>;
}[ToolName<TTools>];

/**
 * The machine-readable error envelope of a failed tool call. Source: HARNESS-TYPESTATE §3.2.
 *
 * @example
 * ```ts
 * import type { ToolErrorEnvelope } from 'turngate';
 * declare const value: ToolErrorEnvelope;
 * value.errorCode;
 * ```
 */
export interface ToolErrorEnvelope {
  /** A non-blank error code (e.g. `timeout`). */
  readonly errorCode: string;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;
  /** A human-readable message; digested, never required to parse. */
  readonly errorMessage: string;
}

/**
 * The successful result of tool `TName`.
 *
 * @example
 * ```ts
 * import type { ToolOk } from 'turngate';
 * type Example = ToolOk<never, never>;
 * ```
 */
export interface ToolOk<TTools extends ToolDefinitions, TName extends ToolName<TTools>> {
  readonly toolCallId: string;
  readonly toolName: TName;
  readonly status: 'ok';
  /** The output, as the tool's output schema returned it. */
  readonly output: ToolOutput<TTools, TName>;
  /** `sha256:` digest of the output's canonical JSON. */
  readonly resultDigest: string;
}

/**
 * The failed result of tool `TName`.
 *
 * @example
 * ```ts
 * import type { ToolFailed } from 'turngate';
 * type Example = ToolFailed<never, never>;
 * ```
 */
export interface ToolFailed<TTools extends ToolDefinitions, TName extends ToolName<TTools>> {
  readonly toolCallId: string;
  readonly toolName: TName;
  readonly status: 'error';
  readonly error: ToolErrorEnvelope;
}

/**
 * Any terminal result of a registry: a union discriminated on `toolName` (then `status`), so
 * `match(result).with({ toolName: 'fs.read', status: 'ok' }, ...)...exhaustive()` type-checks
 * only when every tool is handled.
 *
 * @example
 * ```ts
 * import { match } from 'ts-pattern';
 * import * as v from 'valibot';
 * import { defineTools, type ToolResult } from 'turngate';
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * declare const result: ToolResult<typeof tools.definitions>;
 * match(result)
 *   .with({ toolName: 'fs.read', status: 'ok' }, (r) => r.output.text)
 *   .with({ status: 'error' }, (r) => r.error.errorCode)
 *   .exhaustive();
 * ```
 */
export type ToolResult<TTools extends ToolDefinitions> = {
  [TName in ToolName<TTools>]: ToolOk<TTools, TName> | ToolFailed<TTools, TName>;
}[ToolName<TTools>];

/**
 * One handler per tool of a registry, each receiving that tool's result (ok or error).
 *
 * @example
 * ```ts
 * import type { ToolDefinitions, ToolResultHandlers } from 'turngate';
 * declare const handlers: ToolResultHandlers<ToolDefinitions, string>;
 * ```
 */
export type ToolResultHandlers<TTools extends ToolDefinitions, TReturn> = {
  readonly [TName in ToolName<TTools>]: (result: ToolOk<TTools, TName> | ToolFailed<TTools, TName>) => TReturn;
};

/**
 * Matches a tool result exhaustively by tool name: one handler per tool of the registry, so a
 * missing tool is a `tsc` error that names it (`Property 'web.search' is missing`). The cost
 * grows linearly with the number of tools (about 300 instantiations per tool, against tens of
 * thousands for a ts-pattern match over a large result union; see `npm run bench:types`).
 *
 * @param result - A typed tool result.
 * @param handlers - A handler per tool name.
 * @returns What the result's handler returns.
 * @throws TypeError when no handler exists for the result's tool (only possible with a cast).
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, matchToolResult, type ToolResult } from 'turngate';
 * const tools = defineTools({
 *   'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) },
 *   'web.search': { input: v.object({ query: v.string() }), output: v.object({ hits: v.number() }) },
 * });
 * declare const result: ToolResult<typeof tools.definitions>;
 * const line = matchToolResult(result, {
 *   'fs.read': (r) => (r.status === 'ok' ? r.output.text : r.error.errorCode),
 *   'web.search': (r) => (r.status === 'ok' ? `${r.output.hits} hits` : r.error.errorCode),
 * });
 * ```
 */
export function matchToolResult<TTools extends ToolDefinitions, THandlers extends ToolResultHandlers<TTools, unknown>>(
  result: ToolResult<TTools>,
  handlers: THandlers,
): ReturnType<THandlers[ToolName<TTools>]> {
  type TReturn = ReturnType<THandlers[ToolName<TTools>]>;
  const handler = Object.hasOwn(handlers, result.toolName)
    ? // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      (handlers as unknown as Record<string, (r: ToolResult<TTools>) => TReturn>)[result.toolName]
    : undefined;
  if (handler === undefined)
    throw new TypeError(`matchToolResult: no handler for tool ${JSON.stringify(result.toolName)}`);
  return handler(result);
}

/**
 * A result as a caller reports it: an output, or an error envelope.
 *
 * @example
 * ```ts
 * import type { ReportedToolResult } from 'turngate';
 * declare const value: ReportedToolResult;
 * void value;
 * ```
 */
export type ReportedToolResult =
  | { readonly toolCallId: string; readonly status: 'ok'; readonly output: unknown }
  | { readonly toolCallId: string; readonly status: 'error'; readonly error: ToolErrorEnvelope };

/**
 * Provenance of a `consumed` result: what it was consumed into. `admitMutation` requires one of
 * these refs on every consumed row. Source: TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @example
 * ```ts
 * import type { UseEvidence } from 'turngate';
 * declare const value: UseEvidence;
 * value.summaryRef;
 * ```
 */
export interface UseEvidence {
  /** The summary that used the result. */
  readonly summaryRef?: string;
  /** The handoff packet that carried it. */
  readonly handoffRef?: string;
  /** The mutation input built from it. */
  readonly mutationInputRef?: string;
}

/**
 * What the turn did with one result.
 *
 * @example
 * ```ts
 * import type { ToolUseInputRow } from 'turngate';
 * declare const value: ToolUseInputRow;
 * value.toolCallId;
 * ```
 */
export interface ToolUseInputRow {
  readonly toolCallId: string;
  readonly disposition: ToolUseDisposition;
  /** Required for `discarded_with_reason`. */
  readonly reasonCode?: string;
  /** For `consumed`: what the result was consumed into. */
  readonly evidence?: UseEvidence;
}

/**
 * A recorded tool-use row, bound to the digest of the result it used.
 *
 * @example
 * ```ts
 * import type { ToolUseRow } from 'turngate';
 * declare const value: ToolUseRow;
 * value.resultDigest;
 * ```
 */
export interface ToolUseRow extends ToolUseInputRow {
  /** The digest of the result used, when the result was `ok`. */
  readonly resultDigest?: string;
}

/**
 * The requested tool calls of a turn.
 *
 * @example
 * ```ts
 * import { settle, type ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * requests.requests.map((r) => r.toolCallId);
 * await settle(requests, async (r) => ({ ran: r.toolName }));
 * ```
 */
export type ToolRequests<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'ToolRequests',
  {
    readonly callSpec: CallSpec;
    readonly tools: ToolRegistry<TTools>;
    readonly requests: readonly AnyToolRequest<TTools>[];
  }
>;

/**
 * The terminal results recorded so far.
 *
 * @example
 * ```ts
 * import { useAll, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * useAll(results, (r) => (r.status === 'ok' ? 'observed' : { disposition: 'discarded_with_reason', reasonCode: r.error.errorCode }));
 * ```
 */
export type ToolResults<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'ToolResults',
  { readonly requests: ToolRequests<TTools>; readonly results: readonly ToolResult<TTools>[] }
>;

/**
 * The tool-use dispositions of the results.
 *
 * @example
 * ```ts
 * import { closeJoin, type ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * closeJoin(use, { protocolState: { stopReason: 'end_turn' } });
 * ```
 */
export type ToolUse<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'ToolUse',
  { readonly results: ToolResults<TTools>; readonly uses: readonly ToolUseRow[] }
>;

/**
 * A closed turn: every HARNESS-TYPESTATE §5 condition held when the join check ran. Holds the
 * normalized evidence, its digest bundle, the check report and the typed results.
 *
 * @example
 * ```ts
 * import { admitMutation, type JoinClosed } from 'turngate';
 * declare const closed: JoinClosed;
 * closed.normalized.digests.joinSetDigest; // 'sha256:…'
 * admitMutation(closed, { mutationPolicyDigest: 'pol.mut' });
 * ```
 */
export type JoinClosed<TTools extends ToolDefinitions = ToolDefinitions> = Branded<
  'JoinClosed',
  {
    readonly use: ToolUse<TTools>;
    readonly report: JoinCheckReport;
    readonly normalized: NormalizedEvidence;
    readonly results: readonly ToolResult<TTools>[];
  }
>;

/**
 * What `closeJoin` needs beyond the tool rows: the protocol state and the context evidence
 * (render rows, reminder queues, state views, handoff, refs), plus optional constraint blocks.
 *
 * @example
 * ```ts
 * import type { CloseContext } from 'turngate';
 * const context: CloseContext = {
 *   protocolState: { stopReason: 'tool_use', continuationAllowed: true },
 *   toolRender: [{ toolCallId: 'tc-1', operatorPayloadDigest: 'sha256:op', reminderRenderDigest: 'sha256:rem', injectionPoint: 'tool_response', policyDigest: 'pol.render' }],
 *   reminderQueue: [{ queueId: 'q', reducedDigest: 'sha256:q', policyDigest: 'pol.queue' }],
 *   stateViews: [{ viewId: 'v', viewDigest: 'sha256:v', policyDigest: 'pol.view' }],
 *   sessionRefs: ['session://1'],
 * };
 * ```
 */
export type CloseContext = Omit<
  JoinCheckInputWire['evidence'],
  'callSpec' | 'toolRequests' | 'toolResults' | 'toolUse'
> &
  Omit<JoinCheckInputWire, 'evidence'>;

/** @internal Throws unless `value` was minted as `state`. */
export function expectMinted(value: unknown, state: TurnStateName): void {
  const actual = mintedState(value);
  if (actual === state) return;
  if (actual === undefined)
    throw new TypestateError(
      'forged',
      state,
      'this value was not returned by a transition function (a literal, cast, spread or copy)',
    );
  throw new TypestateError('wrong_state', state, `this value is a ${actual}`);
}

function fail(failureClass: FailureClass, detail: string, ids?: readonly string[]): Failure {
  return ids === undefined || ids.length === 0
    ? { class: failureClass, detail }
    : { class: failureClass, detail, ids: [...ids].sort() };
}

function failed<T>(failures: Failure[]): Result<T> {
  return { ok: false, failures };
}

/** Runs the join check over assembled evidence; input errors become `tool.schema_invalid`. */
/** Runs the join check over assembled evidence; evidence that is not a turn is `tool.schema_invalid`. */
function check(input: JoinCheckInputWire): { ok: true; report: JoinCheckReport } | { ok: false; failure: Failure } {
  const outcome = joinCheck(input);
  return outcome.ok ? outcome : { ok: false, failure: fail('tool.schema_invalid', outcome.error.message) };
}

const STAGE_PROTOCOL = { stopReason: 'tool_use', continuationAllowed: false } as const;

function requestRows<TTools extends ToolDefinitions>(requests: {
  readonly requests: readonly AnyToolRequest<TTools>[];
}): EvidenceInput['toolRequests'] {
  return requests.requests.map((r) =>
    r.callerId === undefined
      ? { toolCallId: r.toolCallId, toolName: r.toolName }
      : { toolCallId: r.toolCallId, toolName: r.toolName, callerId: r.callerId },
  );
}

function resultRows<TTools extends ToolDefinitions>(
  results: ToolResults<TTools>,
): JoinCheckInputWire['evidence']['toolResults'] {
  return results.results.map((r) =>
    r.status === 'ok'
      ? // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
        { toolCallId: r.toolCallId, status: 'ok', payload: r.output as never }
      : {
          toolCallId: r.toolCallId,
          status: 'error',
          errorCode: r.error.errorCode,
          retryable: r.error.retryable,
          errorMessage: r.error.errorMessage,
        },
  );
}

function useRows<TTools extends ToolDefinitions>(use: ToolUse<TTools>): JoinCheckInputWire['evidence']['toolUse'] {
  return use.uses.map((u) => {
    const row: Record<string, string> = { toolCallId: u.toolCallId, disposition: u.disposition };
    if (u.resultDigest !== undefined) row['resultDigest'] = u.resultDigest;
    if (u.reasonCode !== undefined) row['reasonCode'] = u.reasonCode;
    // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
    return row as never;
  });
}

/**
 * Mints a `CallSpec` from the seed-000 §3.1 binding fields. Fields are normalized as the join
 * check normalizes them (trimmed; `actionMode`, `executionPattern` lowercased).
 *
 * Failure classes: `tool.schema_invalid` (a field missing, blank or not a string; an action
 * mode other than `code`, `json`, `text`).
 *
 * Source: HARNESS-TYPESTATE §3.1, §7.
 *
 * @param input - `callId`, `modelRef`, `actionMode`, `executionPattern`, `normalizerId` and the six policy digests.
 * @returns The `CallSpec`, or failures.
 * @example
 * ```ts
 * import { callSpec } from 'turngate';
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'json', executionPattern: 'single',
 *   normalizerId: 'nf.v1', mutationPolicyDigest: 'pol.mut', governancePolicyDigest: 'pol.gov',
 *   toolRenderProtocolDigest: 'pol.render', reminderQueuePolicyDigest: 'pol.queue',
 *   stateViewPolicyDigest: 'pol.view', decompositionPolicyDigest: 'pol.decomp' });
 * spec.ok; //=> true
 * ```
 */
export function callSpec<const TMode extends string>(
  input: JoinCheckInputWire['evidence']['callSpec'] & { readonly actionMode: TMode },
): Result<CallSpec<Lowercase<TMode> & ActionMode>> {
  const checked = check({ evidence: { callSpec: input, protocolState: STAGE_PROTOCOL } });
  if (!checked.ok) return failed([checked.failure]);
  const spec = checked.report.normalized.callSpec;
  if (spec.actionMode !== 'code' && spec.actionMode !== 'json' && spec.actionMode !== 'text') {
    return failed([
      fail('tool.schema_invalid', `callSpec.actionMode must be code, json or text, not \`${spec.actionMode}\``),
    ]);
  }
  return {
    ok: true,
    value: mint('CallSpec', { spec: deepFreeze(spec) as CallSpec<Lowercase<TMode> & ActionMode>['spec'] }),
  };
}

/**
 * A request as a caller hands it in: tool name and input not yet validated.
 *
 * @example
 * ```ts
 * import type { RequestedToolCall } from 'turngate';
 * declare const value: RequestedToolCall;
 * value.toolCallId;
 * ```
 */
export interface RequestedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly callerId?: string;
}

/**
 * A deterministic text adapter profile: turns a text-mode action into structured tool-use
 * blocks. Text mode admits tool requests only through one. Source: HARNESS-TYPESTATE §7.
 *
 * @example
 * ```ts
 * import type { TextAdapterProfile } from 'turngate';
 * const profile: TextAdapterProfile = {
 *   profileId: 'json-line.v1',
 *   parse: (text) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { toolCallId: string; toolName: string; input: unknown }),
 * };
 * ```
 */
export interface TextAdapterProfile {
  /** The profile id, e.g. `xml-tool-tags.v1`. */
  readonly profileId: string;
  /** Parses the text; must be deterministic (same text, same blocks). */
  readonly parse: (text: string) => readonly RequestedToolCall[];
}

const adapted = new WeakSet<readonly RequestedToolCall[]>();

function validateRequests<TTools extends ToolDefinitions>(
  spec: CallSpec,
  tools: ToolRegistry<TTools>,
  requests: readonly RequestedToolCall[],
): Result<ToolRequests<TTools>> {
  const failures: Failure[] = [];
  const mode = spec.spec.actionMode;
  if (mode === 'text' && !adapted.has(requests)) {
    failures.push(
      fail(
        'tool.schema_invalid',
        'text mode: tool requests must come from a text adapter profile (adaptText), not raw text',
        requests.map((r) => r.toolCallId),
      ),
    );
  }
  if (mode === 'json' && requests.length > 1) {
    failures.push(
      fail(
        'tool.parallel_policy_violation',
        `json mode: one tool invocation per action, got ${requests.length}`,
        requests.map((r) => r.toolCallId),
      ),
    );
  }
  const seen = new Set<string>();
  const typed: AnyToolRequest<TTools>[] = [];
  for (const request of requests) {
    if (seen.has(request.toolCallId))
      failures.push(
        fail('tool.schema_invalid', `toolCallId ${JSON.stringify(request.toolCallId)} is requested twice`, [
          request.toolCallId,
        ]),
      );
    seen.add(request.toolCallId);
    const definition = Object.hasOwn(tools.definitions, request.toolName)
      ? tools.definitions[request.toolName]
      : undefined;
    if (definition === undefined) {
      failures.push(
        fail('tool.unknown_or_disallowed', `tool ${JSON.stringify(request.toolName)} is not in the registry`, [
          request.toolCallId,
        ]),
      );
      continue;
    }
    if (
      definition.allowedCallers !== undefined &&
      (request.callerId === undefined || !definition.allowedCallers.includes(request.callerId))
    ) {
      failures.push(
        fail(
          'tool.unknown_or_disallowed',
          `tool ${JSON.stringify(request.toolName)} may not be called by ${request.callerId === undefined ? 'the model directly' : JSON.stringify(request.callerId)}`,
          [request.toolCallId],
        ),
      );
      continue;
    }
    const input = validateWith(definition.input, request.input);
    if (!input.ok) {
      failures.push(
        fail(
          'tool.schema_invalid',
          `input of ${request.toolName} does not match its schema: ${formatIssues(input.issues)}`,
          [request.toolCallId],
        ),
      );
      continue;
    }
    const row = { toolCallId: request.toolCallId, toolName: request.toolName, input: input.value };
    typed.push(
      (request.callerId === undefined ? row : { ...row, callerId: request.callerId }) as AnyToolRequest<TTools>,
    );
  }
  if (failures.length > 0) return failed(failures);
  const checked = check({
    evidence: { callSpec: spec.spec, toolRequests: requestRows({ requests: typed }), protocolState: STAGE_PROTOCOL },
  });
  if (!checked.ok) return failed([checked.failure]);
  return { ok: true, value: mint('ToolRequests', { callSpec: spec, tools, requests: deepFreeze(typed) }) };
}

/**
 * Mints `ToolRequests`: the tool calls the model asked for, each validated against the registry.
 *
 * Failure classes: `tool.unknown_or_disallowed` (tool not registered, or the caller not in its
 * `allowedCallers`), `tool.schema_invalid` (input fails its schema; a repeated `toolCallId`;
 * a text-mode turn whose requests did not come through {@link adaptText}),
 * `tool.parallel_policy_violation` (more than one request in json mode).
 *
 * Source: HARNESS-TYPESTATE §7; TOOL-CALLING-HARNESS-TYPESTATE §4.2, §5.
 *
 * @param spec - A `CallSpec` from {@link callSpec}.
 * @param tools - The registry from `defineTools`.
 * @param requests - The requested calls.
 * @returns `ToolRequests`, or failures.
 * @throws {@link TypestateError} when `spec` was not minted by {@link callSpec}.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { defineTools, requestTools, type CallSpec } from 'turngate';
 * declare const spec: CallSpec;
 * const tools = defineTools({ 'fs.read': { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } });
 * const requests = requestTools(spec, tools, [{ toolCallId: 'toolu_01', toolName: 'fs.read', input: { path: 'README.md' } }]);
 * if (!requests.ok) requests.failures.map((f) => f.class);
 * ```
 */
export function requestTools<TTools extends ToolDefinitions>(
  spec: CallSpec,
  tools: ToolRegistry<TTools>,
  requests: readonly RequestedToolCall[],
): Result<ToolRequests<TTools>> {
  expectMinted(spec, 'CallSpec');
  return validateRequests(spec, tools, requests);
}

/**
 * Mints `ToolRequests` for a text-mode turn by running a deterministic adapter profile over the
 * model's text. This is the only way a text-mode turn has tool requests.
 *
 * Failure classes: as {@link requestTools}; `tool.schema_invalid` when the profile throws.
 *
 * Source: HARNESS-TYPESTATE §7 (text MUST be normalized through a deterministic adapter profile).
 *
 * @param spec - A text-mode `CallSpec`.
 * @param tools - The registry.
 * @param profile - The adapter profile.
 * @param text - The model's text action.
 * @returns `ToolRequests`, or failures.
 * @throws {@link TypestateError} when `spec` was not minted by {@link callSpec}.
 *
 * @example
 * ```ts
 * import { adaptText, type CallSpec, type ToolRegistry } from 'turngate';
 * declare const textSpec: CallSpec<'text'>;
 * declare const tools: ToolRegistry;
 * const profile = {
 *   profileId: 'read-tag.v1',
 *   parse: (text: string) => [...text.matchAll(/<read id="(\w+)">([^<]*)<\/read>/g)].map((m) => ({ toolCallId: m[1] ?? '', toolName: 'fs.read', input: { path: m[2] } })),
 * };
 * adaptText(textSpec, tools, profile, 'Let me look: <read id="t1">README.md</read>');
 * ```
 */
export function adaptText<TTools extends ToolDefinitions>(
  spec: CallSpec,
  tools: ToolRegistry<TTools>,
  profile: TextAdapterProfile,
  text: string,
): Result<ToolRequests<TTools>> {
  expectMinted(spec, 'CallSpec');
  let blocks: readonly RequestedToolCall[];
  try {
    blocks = [...profile.parse(text)];
  } catch (error) {
    return failed([
      fail('tool.schema_invalid', `text adapter ${profile.profileId} failed: ${(error as Error).message}`),
    ]);
  }
  adapted.add(blocks);
  return validateRequests(spec, tools, blocks);
}

/**
 * Mints `ToolResults`: the terminal results of requested calls. An `ok` output is validated
 * against its tool's output schema and digested; an error carries the typed envelope.
 *
 * Failure classes (from the join check where it applies): `tool.result_orphan` (a result for a
 * call never requested), `tool.schema_invalid` (output fails its schema or is not JSON; an
 * error envelope with a blank code; two different results for one call).
 *
 * Source: HARNESS-TYPESTATE §3.2, §5; TOOL-CALLING-HARNESS-TYPESTATE §4.3.
 *
 * @param requests - `ToolRequests` from {@link requestTools}.
 * @param results - One result per call answered so far.
 * @returns `ToolResults`, or failures.
 * @throws {@link TypestateError} when `requests` was not minted by {@link requestTools}.
 *
 * @example
 * ```ts
 * import { recordResults, type ToolRequests } from 'turngate';
 * declare const requests: ToolRequests;
 * recordResults(requests, [
 *   { toolCallId: 'toolu_01', status: 'ok', output: { text: '# turngate' } },
 *   { toolCallId: 'toolu_02', status: 'error', error: { errorCode: 'timeout', retryable: true, errorMessage: 'no answer in 5 s' } },
 * ]);
 * ```
 */
export function recordResults<TTools extends ToolDefinitions>(
  requests: ToolRequests<TTools>,
  results: readonly ReportedToolResult[],
): Result<ToolResults<TTools>> {
  expectMinted(requests, 'ToolRequests');
  const byId = new Map(requests.requests.map((r) => [r.toolCallId, r]));
  const failures: Failure[] = [];
  const typed: ToolResult<TTools>[] = [];
  for (const result of results) {
    const request = byId.get(result.toolCallId);
    const toolName = request?.toolName ?? '';
    if (result.status === 'ok') {
      const definition = request === undefined ? undefined : requests.tools.definitions[request.toolName];
      const output =
        definition === undefined
          ? { ok: true as const, value: result.output }
          : validateWith(definition.output, result.output);
      if (!output.ok) {
        failures.push(
          fail(
            'tool.schema_invalid',
            `output of ${toolName} does not match its schema: ${formatIssues(output.issues)}`,
            [result.toolCallId],
          ),
        );
        continue;
      }
      // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      typed.push({
        toolCallId: result.toolCallId,
        toolName,
        status: 'ok',
        output: output.value,
        resultDigest: '',
      } as never);
    } else {
      // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
      typed.push({ toolCallId: result.toolCallId, toolName, status: 'error', error: { ...result.error } } as never);
    }
  }
  if (failures.length > 0) return failed(failures);
  // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
  const draft = { requests, results: typed } as unknown as ToolResults<TTools>;
  const checked = check({
    evidence: {
      callSpec: requests.callSpec.spec,
      toolRequests: requestRows(requests),
      toolResults: resultRows(draft),
      protocolState: STAGE_PROTOCOL,
    },
  });
  if (!checked.ok) return failed([checked.failure]);
  const stage = checked.report.failures.filter(
    (f) => f.class === 'tool.result_orphan' || f.class === 'tool.schema_invalid',
  );
  if (stage.length > 0) return failed([...stage]);
  const digests = new Map((checked.report.normalized.toolResults ?? []).map((r) => [r.toolCallId, r.resultDigest]));
  const bound = typed.map((r) =>
    r.status === 'ok' ? { ...r, resultDigest: digests.get(r.toolCallId) as string } : r,
  ) as ToolResult<TTools>[];
  return { ok: true, value: mint('ToolResults', { requests, results: deepFreeze(bound) }) };
}

/**
 * Mints `ToolUse`: one disposition per result. `consumed` rows are bound to the digest of the
 * result they used.
 *
 * Failure classes: `tool.use_without_result` (a disposition for a call without a result),
 * `tool.schema_invalid` (an unknown disposition, a `discarded_with_reason` row without
 * `reasonCode`, two different dispositions for one call).
 *
 * Source: HARNESS-TYPESTATE §5; TOOL-CALLING-HARNESS-TYPESTATE §4.4.
 *
 * @param results - `ToolResults` from {@link recordResults}.
 * @param uses - The dispositions.
 * @returns `ToolUse`, or failures.
 * @throws {@link TypestateError} when `results` was not minted by {@link recordResults}.
 *
 * @example
 * ```ts
 * import { recordUse, type ToolResults } from 'turngate';
 * declare const results: ToolResults;
 * recordUse(results, [
 *   { toolCallId: 'toolu_01', disposition: 'consumed', evidence: { summaryRef: 'summary://turn-1' } },
 *   { toolCallId: 'toolu_02', disposition: 'discarded_with_reason', reasonCode: 'stale' },
 * ]);
 * ```
 */
export function recordUse<TTools extends ToolDefinitions>(
  results: ToolResults<TTools>,
  uses: readonly ToolUseInputRow[],
): Result<ToolUse<TTools>> {
  expectMinted(results, 'ToolResults');
  const digests = new Map(results.results.map((r) => [r.toolCallId, r.status === 'ok' ? r.resultDigest : undefined]));
  const rows: ToolUseRow[] = uses.map((u) => {
    const digest = digests.get(u.toolCallId);
    return digest === undefined ? { ...u } : { ...u, resultDigest: digest };
  });
  // biome-ignore lint/plugin: rows are built untyped and the state is minted below; the public signature carries the tool types
  const draft = { results, uses: rows } as unknown as ToolUse<TTools>;
  const checked = check({
    evidence: {
      callSpec: results.requests.callSpec.spec,
      toolRequests: requestRows(results.requests),
      toolResults: resultRows(results),
      toolUse: useRows(draft),
      protocolState: STAGE_PROTOCOL,
    },
  });
  if (!checked.ok) return failed([checked.failure]);
  const stage = checked.report.failures.filter((f) => f.class === 'tool.use_without_result');
  if (stage.length > 0) return failed([...stage]);
  return { ok: true, value: mint('ToolUse', { results, uses: deepFreeze(rows) }) };
}

/**
 * Mints `JoinClosed` when, and only when, the join check accepts the whole turn: every request
 * answered once, no orphan, every result used, no use without a result, a handled stop reason,
 * the context evidence present and policy-valid when the loop continues, and every constraint
 * block satisfied.
 *
 * Failure classes: every class the join check emits (see `joinCheck`), with their ids.
 *
 * Source: HARNESS-TYPESTATE §5.
 *
 * @param use - `ToolUse` from {@link recordUse}.
 * @param context - `protocolState` and the context evidence (`toolRender`, `reminderQueue`,
 *   `stateViews`, `handoff`, `sessionRefs`, `trajectoryRefs`) plus optional constraint blocks.
 * @returns `JoinClosed`, or the report's failures.
 * @throws {@link TypestateError} when `use` was not minted by {@link recordUse}.
 *
 * @example
 * ```ts
 * import { closeJoin, type ToolUse } from 'turngate';
 * declare const use: ToolUse;
 * const closed = closeJoin(use, { protocolState: { stopReason: 'end_turn' }, sessionRefs: ['session://1'], trajectoryRefs: ['trajectory://1/1'] });
 * if (!closed.ok) closed.failures.map((f) => `${f.class} ${f.ids?.join(',') ?? ''}`);
 * ```
 */
export function closeJoin<TTools extends ToolDefinitions>(
  use: ToolUse<TTools>,
  context: CloseContext,
): Result<JoinClosed<TTools>> {
  expectMinted(use, 'ToolUse');
  const {
    governanceProfile,
    protocolConstraints,
    handoffConstraints,
    truncationConstraints,
    decompositionConstraints,
    ...evidence
  } = context;
  const input: JoinCheckInputWire = {
    evidence: {
      ...evidence,
      callSpec: use.results.requests.callSpec.spec,
      toolRequests: requestRows(use.results.requests),
      toolResults: resultRows(use.results),
      toolUse: useRows(use),
    },
  };
  const blocks = {
    governanceProfile,
    protocolConstraints,
    handoffConstraints,
    truncationConstraints,
    decompositionConstraints,
  };
  for (const [key, value] of Object.entries(blocks))
    if (value !== undefined) (input as Record<string, unknown>)[key] = value;
  const checked = check(input);
  if (!checked.ok) return failed([checked.failure]);
  const { report } = checked;
  if (report.result !== 'accepted') return failed([...report.failures]);
  deepFreeze(report);
  return {
    ok: true,
    value: mint('JoinClosed', { use, report, normalized: report.normalized, results: use.results.results }),
  };
}
