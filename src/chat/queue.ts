/**
 * Per-session serialization inside one process. Internal.
 *
 * @module
 */

/**
 * Runs bodies one at a time per session, in call order; different sessions run in parallel
 * (harness-chat §5.3). A body that throws or rejects does not stop the ones after it. The harness
 * queues every turn of a session here; the in-process stores use it for their session lock.
 * Internal.
 */
export class SessionQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `body` after every body queued earlier for `sessionId` has settled.
   *
   * @param sessionId - The session.
   * @param body - The work.
   * @returns What `body` returns (or rejects with).
   */
  run<T>(sessionId: string, body: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(sessionId);
    const start = (): Promise<T> => {
      try {
        return body();
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const run = previous === undefined ? start() : previous.then(start, start);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
    return run;
  }

  /** How many sessions have work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
