/**
 * `ToolRequests`: the tool calls the model asked for, validated against the registry
 * (`requestTools`), or adapted from a text-mode action (`adaptText`).
 *
 * @module
 */
import type { Failure, Result } from '../failures/index.ts';
import { deepFreeze, expectMinted, mint, type Branded } from './brand.ts';
import type { CallSpec } from './call-spec.ts';
import { check, fail, failed, requestRows, STAGE_PROTOCOL } from './rows.ts';
import {
  formatIssues,
  validateWith,
  type ToolDefinitions,
  type ToolInput,
  type ToolName,
  type ToolRegistry,
} from './tools.ts';

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
