// The job, for any build of turngate: what `turngate harness-join-check --input FILE --json` does
// with the file's bytes. One definition: jobs.mjs applies it to this checkout's dist/, and
// solo-job.mjs to whichever build it is given (BENCH_BASELINE), without loading this one.

/**
 * The in-process job on `bytes` with `build`'s functions; returns the report text.
 *
 * @param {{ joinCheckText: Function, renderJoinCheckJson: Function }} build - A build's root module.
 * @param {Uint8Array} bytes
 * @returns {() => string}
 */
export function jobWith(build, bytes) {
  return () => {
    const outcome = build.joinCheckText(bytes);
    // Builds before the one Result shape returned the report as `report`, the refusal as `error`.
    if (!outcome.ok) throw new Error(`bench input refused: ${(outcome.failures?.[0] ?? outcome.error)?.message}`);
    return build.renderJoinCheckJson(outcome.value ?? outcome.report);
  };
}
