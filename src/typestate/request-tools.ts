/**
 * `ToolRequests`: the tool calls the model asked for, each validated against the registry
 * (`requestTools`), or adapted from a text-mode action (`adaptText`). A call that cannot run
 * (unknown tool, caller not allowed, invalid input, a second call in json mode) is kept as a
 * refused call, so the turn still answers it; the batch fails only when it cannot be answered
 * at all (blank or repeated ids, ids with control characters, raw text-mode requests).
 *
 * @module
 */
import { digest, type JsonValue, isBlank } from '../canonical/index.ts';

/**
 * What is wrong with a call's id, if anything: not a string, blank, or holding a control
 * character (an id is echoed into logs, terminals and the next request).
 */
function idProblem(toolCallId: unknown): string | undefined {
  if (typeof toolCallId !== 'string' || isBlank(toolCallId)) return BLANK_ID;
  return CONTROL_CHARACTER.test(toolCallId)
    ? `expected no control characters, got ${JSON.stringify(toolCallId)}`
    : undefined;
}

const BLANK_ID = 'expected a non-blank string';

/** A C0 or C1 control character (U+0000-U+001F, U+007F-U+009F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
import type { Result } from '../failures/index.ts';
import { snapshotOwnData, snapshotProblem } from '../internal/own-data.ts';
import { deepFreeze, expectMinted, mint } from './brand.ts';
import type { CallSpec, ModeOf } from './call-spec.ts';
import type { RequestedToolCall } from './inputs.ts';
import type { CallsCheck } from './message-checks.ts';
import type { StateArgument } from './messages.ts';
import type { AnyToolRequest, RefusedToolCall, TextAdapterProfile, ToolRequest, ToolRequests } from './requests.ts';
import { TOOL_ERROR_CODES } from './results.ts';
import { callRows, carryRows, checkStage, STAGE_PROTOCOL } from './rows.ts';
import { resolveMethod, unknownMethodDetail } from './methods.ts';
import { formatIssues, validateWith } from './schema.ts';
import { registryDefinitions, type ToolDefinitions, type ToolDefinitionsOf, type ToolRegistry } from './tools.ts';
import { firstFailure, fail, failure, FailureCollector } from '../failures/internal.ts';

interface CallFields {
  readonly toolCallId: unknown;
  readonly toolName: unknown;
  readonly callerId: unknown;
  readonly method: unknown;
  readonly input: unknown;
}

/** Reads a call's own fields; a getter or Proxy trap that throws gives `undefined` for the call. */
function readCall(call: unknown): CallFields | undefined {
  if (call === null || typeof call !== 'object') return undefined;
  try {
    const own = (key: string) => (Object.hasOwn(call, key) ? (call as Record<string, unknown>)[key] : undefined);
    return {
      toolCallId: own('toolCallId'),
      toolName: own('toolName'),
      callerId: own('callerId'),
      method: own('method'),
      input: own('input'),
    };
  } catch {
    return undefined;
  }
}

function readCalls(calls: unknown): readonly unknown[] | string {
  try {
    if (!Array.isArray(calls)) return 'calls: expected an array of { toolCallId, toolName, input, callerId? }';
    return Array.from({ length: calls.length }, (_, i) => (calls as unknown[])[i]);
  } catch (error) {
    return `calls: reading the list threw ${String(error)}`;
  }
}

function refusal(
  call: { toolCallId: string; toolName: string; callerId?: string; method?: string; input: unknown },
  errorCode: RefusedToolCall['errorCode'],
  detail: string,
): RefusedToolCall {
  const failureClass = TOOL_ERROR_CODES[errorCode].failureClass;
  return { ...call, errorCode, failure: failure(failureClass, detail, [call.toolCallId]) };
}

/** A call whose fields passed {@link malformedField}. */
interface WellFormedCall {
  readonly toolName: string;
  readonly callerId?: string;
  readonly method?: string;
}

/** The first malformed field of a call after its id (name, caller, method), as a detail. */
function malformedField(fields: CallFields, at: string): string | undefined {
  const { toolName, callerId, method } = fields;
  if (typeof toolName !== 'string' || isBlank(toolName)) return `${at}.toolName: expected a non-blank string`;
  if (callerId !== undefined && (typeof callerId !== 'string' || isBlank(callerId)))
    return `${at}.callerId: expected a non-blank string when given`;
  if (method !== undefined && (typeof method !== 'string' || isBlank(method)))
    return `${at}.method: expected a non-blank string when given`;
  return undefined;
}

/**
 * A well-formed call checked against the registry and the turn's action mode: its request, or
 * its refusal (a tool not in the registry, a second call in json mode, a caller not allowed, an
 * unknown method, an input that is not JSON data or does not match the tool's input schema).
 */
function admitCall(
  definitions: ToolDefinitions,
  mode: CallSpec['spec']['actionMode'],
  index: number,
  at: string,
  base: { toolCallId: string; toolName: string; callerId?: string },
  callerId: string | undefined,
  method: string | undefined,
  given: unknown,
): ToolRequest<ToolDefinitions> | RefusedToolCall {
  // Not read from `base`: without an own callerId, that read would reach Object.prototype.
  const { toolCallId, toolName } = base;
  const snapshot = snapshotOwnData(given, { root: `${at}.input` });
  const input = snapshot.ok ? snapshot.value : undefined;
  const call = method === undefined ? { ...base, input } : { ...base, method, input };
  const definition = Object.hasOwn(definitions, toolName) ? definitions[toolName] : undefined;
  if (definition === undefined)
    return refusal(call, 'unknown_tool', `tool ${JSON.stringify(toolName)} is not in the registry`);
  if (mode === 'json' && index > 0)
    return refusal(
      call,
      'parallel_call_refused',
      `json mode: one tool invocation per action; ${toolCallId} is call ${index + 1}`,
    );
  const allowed = definition.allowedCallers;
  if (allowed !== undefined && (callerId === undefined || !allowed.includes(callerId)))
    return refusal(
      call,
      'caller_not_allowed',
      `tool ${JSON.stringify(toolName)} may be called only by ${allowed.join(', ')}, not ${callerId === undefined ? 'the model directly' : JSON.stringify(callerId)}`,
    );
  const resolution = resolveMethod(definition, method);
  if (resolution.status === 'unknown')
    return refusal(call, 'unknown_method', unknownMethodDetail(toolName, resolution));
  if (!snapshot.ok)
    return refusal(call, 'invalid_input', `input of ${toolName} is not JSON data: ${snapshotProblem(snapshot)}`);
  const parsed = validateWith(definition.input, input);
  const parsedData = parsed.ok ? snapshotOwnData(parsed.value, { root: `${at}.input` }) : undefined;
  if (!parsed.ok || parsedData === undefined || !parsedData.ok) {
    const why = !parsed.ok
      ? formatIssues(parsed.failures)
      : parsedData !== undefined && !parsedData.ok
        ? `the parsed input is not JSON data: ${firstFailure(parsedData).detail}`
        : '';
    return refusal(call, 'invalid_input', `input of ${toolName} does not match its schema: ${why}`);
  }
  return {
    ...base,
    ...(resolution.method === undefined ? {} : { method: resolution.method }),
    ...(resolution.alias === undefined ? {} : { calledAs: resolution.alias.alias }),
    input: parsedData.value,
    inputDigest: digest(parsedData.value as JsonValue),
  };
}

function validateCalls<TTools extends ToolDefinitionsOf<TTools>>(
  spec: CallSpec,
  tools: ToolRegistry<TTools>,
  given: unknown,
  adapted: boolean,
): Result<ToolRequests<TTools>> {
  const definitions: ToolDefinitions = registryDefinitions(tools);
  const list = readCalls(given);
  if (typeof list === 'string') return fail('tool.schema_invalid', list);
  const mode = spec.spec.actionMode;
  const failures = new FailureCollector();
  const seen = new Set<string>();
  const requests: AnyToolRequest<TTools>[] = [];
  const refused: RefusedToolCall[] = [];
  const callIds: string[] = [];
  const rows: { toolCallId: string; toolName: string; callerId?: string }[] = [];
  list.forEach((raw, index) => {
    const at = `calls[${index}]`;
    const fields = readCall(raw);
    if (fields === undefined) {
      failures.add(
        'tool.schema_invalid',
        `${at}: expected an object { toolCallId, toolName, input } read without throwing`,
      );
      return;
    }
    const { toolCallId } = fields;
    const badId = idProblem(toolCallId);
    if (badId !== undefined || typeof toolCallId !== 'string') {
      failures.add('tool.schema_invalid', `${at}.toolCallId: ${badId}`, badId === BLANK_ID ? [] : [String(toolCallId)]);
      return;
    }
    const malformed = malformedField(fields, at);
    if (malformed !== undefined) {
      failures.add('tool.schema_invalid', malformed, [toolCallId]);
      return;
    }
    if (seen.has(toolCallId)) {
      failures.add('tool.schema_invalid', `toolCallId ${JSON.stringify(toolCallId)} is requested twice`, [toolCallId]);
      return;
    }
    seen.add(toolCallId);
    callIds.push(toolCallId);
    const { toolName, callerId, method } = fields as WellFormedCall;
    const base = callerId === undefined ? { toolCallId, toolName } : { toolCallId, toolName, callerId };
    rows.push(base);
    const admitted = admitCall(definitions, mode, index, at, base, callerId, method, fields.input);
    if ('errorCode' in admitted) refused.push(admitted);
    else requests.push(admitted as AnyToolRequest<TTools>);
  });
  if (mode === 'text' && !adapted && list.length > 0) {
    failures.add(
      'tool.schema_invalid',
      'text mode: tool requests must come from a text adapter profile (adaptText), not raw text',
      callIds,
    );
  }
  if (!failures.empty) return failures.failed();
  const checked = checkStage({
    evidence: { callSpec: spec.spec, toolRequests: callRows(rows), protocolState: STAGE_PROTOCOL },
  });
  if (!checked.ok) return checked;
  const minted = mint('ToolRequests', {
    callSpec: spec,
    tools,
    requests: deepFreeze(requests),
    refused: deepFreeze(refused),
    callIds: Object.freeze(callIds),
  });
  return { ok: true, value: carryRows(minted, checked.value) };
}

/**
 * Mints `ToolRequests`: the tool calls the model asked for. Each call is read as own data
 * (a polluted `Object.prototype` adds nothing) and validated against the registry: an admitted
 * call has its parsed input; a call that cannot run is kept as a refused call with its error
 * code and failure class, so `settle` answers it with an error result and `admitMutation`
 * refuses the turn:
 * - `unknown_tool` / `tool.unknown_or_disallowed`: the tool is not registered;
 * - `caller_not_allowed` / `tool.caller_not_allowed`: the caller is not in its `allowedCallers`;
 * - `unknown_method` / `tool.unknown_or_disallowed`: the tool declares `methods` and the call
 *   names none of them and no alias (or no method at all); an alias is resolved, and the request
 *   records the canonical `method` and the alias it was `calledAs`;
 * - `invalid_input` / `tool.schema_invalid`: the input fails its schema or is not JSON data;
 * - `parallel_call_refused` / `tool.parallel_policy_violation`: a second or later call in json mode.
 *
 * The whole batch fails (`tool.schema_invalid`) only when a call cannot be answered: not an
 * object, a blank `toolCallId` or `toolName`, a `toolCallId` with a control character, a `callerId` or `method` given blank or not a
 * string, a repeated `toolCallId`, or requests on a text-mode turn that did not come through
 * {@link adaptText}.
 *
 * Source: HARNESS-TYPESTATE §7; TOOL-CALLING-HARNESS-TYPESTATE §4.2, §5, §7; ADR 0014, Decision §3
 * (methods and aliases).
 *
 * @param spec - A `CallSpec` from `callSpec`.
 * @param tools - The registry from `defineTools`.
 * @param calls - The requested calls, as the model sent them.
 * @returns `ToolRequests`, or failures: one per class, sorted by class, ids merged and sorted.
 * @throws {@link TypestateError} when `spec` was not minted by `callSpec`; `TypeError` when
 *   `tools` is not a registry from `defineTools`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { callSpec, defineTools, requestTools } from 'turngate';
 * import type { RequestedToolCall } from 'turngate/types';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.object({ text: v.string() }) } }) {}
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'claude-sonnet-4-5', actionMode: 'code' });
 * // What the model sent: names are strings, so the run-time check decides.
 * const calls: RequestedToolCall[] = [
 *   { toolCallId: 'toolu_01', toolName: 'read_file', input: { path: 'README.md' } },
 *   { toolCallId: 'toolu_02', toolName: 'delete_file', input: { path: 'README.md' } },
 * ];
 * if (spec.ok) {
 *   const requests = requestTools(spec.value, Tools, calls);
 *   if (requests.ok) requests.value.refused.map((r) => r.errorCode); //=> ['unknown_tool']
 * }
 * ```
 */
export function requestTools<
  TSpec,
  TTools extends ToolDefinitionsOf<TTools>,
  const TCalls extends readonly RequestedToolCall[],
>(
  spec: StateArgument<TSpec, 'CallSpec', 'call callSpec({ callId, modelRef, actionMode }) first'>,
  tools: ToolRegistry<TTools>,
  calls: CallsCheck<TCalls, TTools, ModeOf<TSpec>>,
): Result<ToolRequests<TTools>>;
export function requestTools(
  spec: CallSpec,
  tools: ToolRegistry,
  calls: readonly RequestedToolCall[],
): Result<ToolRequests> {
  expectMinted(spec, 'CallSpec');
  return validateCalls(spec, tools, calls, false);
}

/**
 * Mints `ToolRequests` for a text-mode turn by running a deterministic adapter profile over the
 * model's text. This is the only way a text-mode turn has tool requests. The blocks it returns
 * are validated as {@link requestTools} validates calls.
 *
 * Failure classes: as {@link requestTools}; `tool.schema_invalid` when the profile throws.
 *
 * Source: HARNESS-TYPESTATE §7 (text MUST be normalized through a deterministic adapter profile).
 *
 * @param spec - A text-mode `CallSpec`.
 * @param tools - The registry.
 * @param profile - The adapter profile.
 * @param text - The model's text action.
 * @returns `ToolRequests`, or failures: one per class, sorted by class, ids merged and sorted.
 * @throws {@link TypestateError} when `spec` was not minted by `callSpec`; `TypeError` when
 *   `tools` is not a registry from `defineTools`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 * import { adaptText, callSpec, defineTools } from 'turngate';
 * class Tools extends defineTools({ read_file: { input: v.object({ path: v.string() }), output: v.string() } }) {}
 * const profile = {
 *   profileId: 'read-tag.v1',
 *   parse: (text: string) => [...text.matchAll(/<read id="(\w+)">([^<]*)<\/read>/g)].map((m) => ({ toolCallId: m[1] ?? '', toolName: 'read_file', input: { path: m[2] } })),
 * };
 * const spec = callSpec({ callId: 'turn-1', modelRef: 'model/1', actionMode: 'text' });
 * if (spec.ok) {
 *   const requests = adaptText(spec.value, Tools, profile, 'Let me look: <read id="t1">README.md</read>');
 *   if (requests.ok) requests.value.callIds; //=> ['t1']
 * }
 * ```
 */
export function adaptText<TSpec, TTools extends ToolDefinitionsOf<TTools>>(
  spec: StateArgument<TSpec, 'CallSpec', 'call callSpec({ callId, modelRef, actionMode }) first'>,
  tools: ToolRegistry<TTools>,
  profile: TextAdapterProfile,
  text: string,
): Result<ToolRequests<TTools>>;
export function adaptText(
  spec: CallSpec,
  tools: ToolRegistry,
  profile: TextAdapterProfile,
  text: string,
): Result<ToolRequests> {
  expectMinted(spec, 'CallSpec');
  let blocks: readonly RequestedToolCall[];
  try {
    blocks = profile.parse(text);
  } catch (error) {
    return fail('tool.schema_invalid', `text adapter ${String(profile.profileId)} failed: ${String(error)}`);
  }
  return validateCalls(spec, tools, blocks, true);
}
