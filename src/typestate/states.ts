/**
 * The names of the turn states and of every brand the registry mints: the vocabulary the brand,
 * the typestate error and the misuse messages share.
 *
 * @module
 */

/**
 * The names of the turn states, in chain order. Source: HARNESS-TYPESTATE §2.
 *
 * @example
 * ```ts
 * import type { TurnStateName } from 'turngate/types';
 * const chain: TurnStateName[] = ['CallSpec', 'ToolRequests', 'ToolResults', 'ToolUse', 'JoinClosed', 'MutationReady'];
 * ```
 */
export type TurnStateName = 'CallSpec' | 'ToolRequests' | 'ToolResults' | 'ToolUse' | 'JoinClosed' | 'MutationReady';

/**
 * Every brand the registry mints: the turn states, a provider transcript that passed its
 * check (`SendableTranscript`, minted by the transcripts layer), and the clearance an effect
 * under an approval policy runs on (`Clearance`, minted by `beginGated`).
 *
 * @example
 * ```ts
 * import type { BrandName } from 'turngate/types';
 * const names: BrandName[] = ['JoinClosed', 'SendableTranscript'];
 * ```
 */
export type BrandName = TurnStateName | 'SendableTranscript' | 'Clearance';

/**
 * The action modes. Source: HARNESS-TYPESTATE §7; TOOL-CALLING-HARNESS-TYPESTATE §5.
 *
 * @example
 * ```ts
 * import type { ActionMode } from 'turngate/types';
 * const modes: ActionMode[] = ['code', 'json', 'text'];
 * ```
 */
export type ActionMode = 'code' | 'json' | 'text';
