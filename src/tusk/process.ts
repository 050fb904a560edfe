/**
 * Whether a process runs: what the harness files' lock and temp-file cleanup ask of a pid they
 * find on disk. Internal.
 *
 * @module
 */

/**
 * Whether a process with `pid` runs on this machine (signal 0: nothing is sent). A process of
 * another user counts as running (`EPERM`); a pid below 1 never names one.
 *
 * @param pid - The process id.
 */
export function processIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid < 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
