/**
 * Collecting failures: one entry per class, details joined, ids merged and sorted. Internal;
 * the join check and the mutation gate both report through it.
 *
 * @module
 */
import type { Failure, FailureClass } from './classes.ts';

/** Collects failures by class and lists them sorted by class. */
export class FailureCollector {
  private readonly byClass = new Map<FailureClass, { details: string[]; ids: Set<string> }>();

  /** Records a failure; a repeated class gains the new detail (once) and ids. */
  add(failureClass: FailureClass, detail: string, ids: readonly string[] = []): void {
    let entry = this.byClass.get(failureClass);
    if (entry === undefined) {
      entry = { details: [], ids: new Set() };
      this.byClass.set(failureClass, entry);
    }
    if (!entry.details.includes(detail)) entry.details.push(detail);
    for (const id of ids) entry.ids.add(id);
  }

  /** Whether nothing was recorded. */
  get empty(): boolean {
    return this.byClass.size === 0;
  }

  /** One failure per class, sorted by class, ids sorted; `ids` absent when there are none. */
  list(): Failure[] {
    return [...this.byClass.keys()].sort().map((failureClass) => {
      const entry = this.byClass.get(failureClass) as { details: string[]; ids: Set<string> };
      const detail = entry.details.join(' ');
      return entry.ids.size > 0
        ? { class: failureClass, detail, ids: [...entry.ids].sort() }
        : { class: failureClass, detail };
    });
  }
}
