/**
 * The types a misuse shows: each names the state or failure class and the ids first, then what
 * to call instead.
 *
 * @module
 */
import type { FailureClass } from '../failures/index.ts';

type LastOf<TUnion> = (TUnion extends unknown ? (x: () => TUnion) => void : never) extends (x: infer TLast) => void
  ? TLast extends () => infer TMember
    ? TMember
    : never
  : never;

/**
 * A union of string literals written as one string, `'tc-1, tc-2, tc-3'`, so a message shows
 * every id instead of `... 7 more ...`; at most 24 ids, then `, ...`.
 *
 * @example
 * ```ts
 * import type { IdList } from 'turngate';
 * const ids: IdList<'tc-1'> = 'tc-1';
 * ```
 */
export type IdList<TIds extends string> = JoinIds<TIds, '', []>;

type JoinIds<TIds extends string, TText extends string, TSeen extends unknown[]> = [TIds] extends [never]
  ? TText
  : TSeen['length'] extends 24
    ? `${TText}, ...`
    : JoinIds<
        Exclude<TIds, LastOf<TIds>>,
        TText extends '' ? LastOf<TIds> & string : `${LastOf<TIds> & string}, ${TText}`,
        [...TSeen, unknown]
      >;

/**
 * What to call to close a join that fails with `TFailureClass`.
 *
 * @example
 * ```ts
 * import type { NextStep } from 'turngate';
 * const step: NextStep<'tool.use_missing'> = 'call .use(id, disposition) for each id';
 * ```
 */
export type NextStep<TFailureClass extends FailureClass> = TFailureClass extends 'tool.result_missing'
  ? 'call .result(id, outcome) for each id'
  : TFailureClass extends 'tool.use_missing'
    ? 'call .use(id, disposition) for each id'
    : 'see the failure class';

/**
 * The type of `.close` on a turn whose join is open: not callable, and its name carries the
 * failure class, the ids and what to call, e.g.
 * `JoinIncomplete<'tool.result_missing', 'tc-2', 'call .result(id, outcome) for each id'>`.
 *
 * @example
 * ```ts
 * import type { JoinIncomplete } from 'turngate';
 * // What the editor shows for .close on a turn whose call tc-2 has no result:
 * type Shown = JoinIncomplete<'tool.result_missing', 'tc-2'>;
 * ```
 */
export interface JoinIncomplete<
  TFailureClass extends FailureClass,
  TIds extends string,
  TNext extends string = NextStep<TFailureClass>,
> {
  /** The failure class `close` would fail with. */
  readonly 'turn is not join-closed': TFailureClass;
  /** The ids that keep the join open, as one string. */
  readonly ids: TIds;
  /** What to call. */
  readonly next: TNext;
}

/**
 * What a builder method shows for a `string` (not literal) tool call id.
 *
 * @example
 * ```ts
 * import type { NonLiteralIdMessage } from 'turngate';
 * type Shown = NonLiteralIdMessage;
 * ```
 */
export type NonLiteralIdMessage =
  'toolCallId is a string, not a literal: the builder tracks literal ids; for ids from model output call requestTools, then settle and useAll';

/**
 * The message a `.result` for an unrequested id shows.
 *
 * @example
 * ```ts
 * import type { ResultOrphanMessage } from 'turngate';
 * const shown: ResultOrphanMessage<'tc-9'> = 'tool.result_orphan: tc-9 was never requested';
 * ```
 */
export type ResultOrphanMessage<TId extends string> = `tool.result_orphan: ${TId} was never requested`;

/**
 * The message a `.use` for an id without a result shows.
 *
 * @example
 * ```ts
 * import type { UseWithoutResultMessage } from 'turngate';
 * const shown: UseWithoutResultMessage<'tc-2'> = 'tool.use_without_result: tc-2 has no result';
 * ```
 */
export type UseWithoutResultMessage<TId extends string> = `tool.use_without_result: ${TId} has no result`;

/**
 * The message a second `.request`, `.result` or `.use` for one id shows.
 *
 * @example
 * ```ts
 * import type { RepeatedIdMessage } from 'turngate';
 * const shown: RepeatedIdMessage<'tc-1', 'a result'> = 'tool.schema_invalid: tc-1 already has a result (one per id)';
 * ```
 */
export type RepeatedIdMessage<
  TId extends string,
  TWhat extends string,
> = `tool.schema_invalid: ${TId} already has ${TWhat} (one per id)`;
