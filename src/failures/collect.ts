/**
 * Collecting failures: one entry per class, details joined ({@link joinDetails}), ids merged and sorted. Internal;
 * every step that reports `Failure`s (the join check, the mutation gate, the typestate
 * transitions, the builder) reports through it, so every `Result.failures` has one shape.
 *
 * @module
 */
import type { Failure, FailureClass, Result } from './classes.ts';

export { firstFailure } from '../internal/result.ts';

/** Collects failures by class and lists them sorted by class. */
export class FailureCollector {
  private readonly byClass = new Map<FailureClass, { details: string[]; ids: Set<string> }>();

  /** Records a failure; a repeated class gains the new detail (once) and ids. */
  add(failureClass: FailureClass, detail: string, ids: readonly string[] = []): this {
    let entry = this.byClass.get(failureClass);
    if (entry === undefined) {
      entry = { details: [], ids: new Set() };
      this.byClass.set(failureClass, entry);
    }
    if (!entry.details.includes(detail)) entry.details.push(detail);
    for (const id of ids) entry.ids.add(id);
    return this;
  }

  /** Records failures built elsewhere (a report's, a refused call's), merged as {@link add} merges. */
  addAll(failures: readonly Failure[]): this {
    for (const failure of failures) this.add(failure.class, failure.detail, failure.ids);
    return this;
  }

  /** Whether nothing was recorded. */
  get empty(): boolean {
    return this.byClass.size === 0;
  }

  /** One failure per class, sorted by class, ids sorted; `ids` absent when there are none. */
  list(): Failure[] {
    return [...this.byClass.keys()].sort().map((failureClass) => {
      const entry = this.byClass.get(failureClass) as { details: string[]; ids: Set<string> };
      const detail = joinDetails(entry.details);
      return entry.ids.size > 0
        ? { class: failureClass, detail, ids: [...entry.ids].sort() }
        : { class: failureClass, detail };
    });
  }

  /**
   * The failed result of what was recorded.
   *
   * @throws `Error` when nothing was recorded (a failed result always names a failure).
   */
  failed<T = never>(): Result<T> {
    if (this.empty) throw new Error('FailureCollector.failed: no failure was recorded');
    return { ok: false, failures: this.list() };
  }
}

/**
 * Details of one failure class as one text: a detail that ends a sentence is followed by a
 * space, one that does not (the typestate's `calls[2].toolName: expected ...`) by `; `, so merged
 * details stay readable. The join check's details are sentences and join as they always did.
 */
export function joinDetails(details: readonly string[]): string {
  let text = '';
  for (const detail of details) {
    if (text !== '') text += /[.!?]$/.test(text) ? ' ' : '; ';
    text += detail;
  }
  return text;
}

/** One failure in the collector's shape: ids deduplicated and sorted, absent when there are none. */
export function failure(failureClass: FailureClass, detail: string, ids: readonly string[] = []): Failure {
  return new FailureCollector().add(failureClass, detail, ids).list()[0] as Failure;
}

/** The failed result of one failure, in the collector's shape. */
export function fail<T = never>(failureClass: FailureClass, detail: string, ids: readonly string[] = []): Result<T> {
  return { ok: false, failures: [failure(failureClass, detail, ids)] };
}

/** The failed result of failures built elsewhere, merged by the collector (one entry per class). */
export function failedWith<T = never>(failures: readonly Failure[]): Result<T> {
  return new FailureCollector().addAll(failures).failed<T>();
}
