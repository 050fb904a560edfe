/**
 * File primitives of the harness stores: atomic replacement (temp file, fsync, rename, fsync of
 * the directory), one writer at a time per path within a process, reads that tell a missing
 * file from an unreadable one, the removal of temp files that killed writers left behind, and
 * the refusal to replace a symbolic link. Internal.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, readFile, readdir, readlink, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HarnessInputError } from './errors.ts';
import { processIsAlive } from './process.ts';

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task for the same file (by resolved path) has settled, so a
 * read-modify-write or an append never interleaves with another from this process.
 */
export function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(path);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/** Reads a file, or `undefined` when it does not exist. */
export async function readIfExists(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Test hooks of {@link writeFileAtomic}: where a crash test stops the process. */
export interface AtomicWriteHooks {
  /** Runs after the temp file is written and fsynced, before the rename. */
  readonly beforeRename?: (tempPath: string) => void | Promise<void>;
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}

/** The temp files this thread is writing (by resolved path): never stray, whatever their age. */
const writing = new Set<string>();

/**
 * Writes `data` to a new temp file beside `path` (`.<name>.<pid>.<12 hex digits>.tmp`, creating
 * the directory when missing) and, when `durable`, fsyncs it; removes it when the write fails.
 * The caller calls {@link doneWith} once the temp file is renamed, linked or removed.
 *
 * @returns The temp file's path.
 */
async function writeTemp(path: string, data: string | Uint8Array, durable = true): Promise<string> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writing.add(resolve(temp));
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(temp, 'wx', 0o644).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
      return open(temp, 'wx', 0o644);
    });
    await handle.writeFile(data);
    if (durable) await handle.sync();
    await handle.close();
  } catch (error) {
    await handle?.close();
    await rm(temp, { force: true });
    doneWith(temp);
    throw error;
  }
  return temp;
}

function doneWith(temp: string): void {
  writing.delete(resolve(temp));
}

/** How old a temp file of a live process must be to count as abandoned (a write takes milliseconds). */
export const ABANDONED_TEMP_MS = 10 * 60_000;

/** This process's start, in ms since the epoch. */
const processStart = () => Date.now() - process.uptime() * 1000;

/**
 * Removes the temp files that writers of `path` killed between the temp-file write and the
 * rename left beside it: names `.<name>.<pid>.<12 hex digits>.tmp` exactly (nothing else is
 * touched), not being written by this thread, whose writer is gone. Gone means: no process with
 * that pid runs on this machine; or the pid is this process's but the file is older than this
 * process (a pid reused, as in a restarted container); or the file is older than
 * {@link ABANDONED_TEMP_MS} whatever its pid. Best effort: a directory or file that cannot be
 * listed or removed is left as it is.
 *
 * @param path - The file whose temp files to clean up.
 * @returns How many were removed.
 */
export async function removeStrayTemps(path: string): Promise<number> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = tempPid(name.slice(prefix.length, -'.tmp'.length));
    const temp = join(dir, name);
    if (pid === undefined || writing.has(resolve(temp))) continue;
    try {
      const { mtimeMs } = await stat(temp);
      const gone =
        Date.now() - mtimeMs > ABANDONED_TEMP_MS ||
        (pid === process.pid ? mtimeMs < processStart() - 1000 : !processIsAlive(pid));
      if (!gone) continue;
      await rm(temp, { force: true });
      removed++;
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}

/** The pid of a temp name's middle part `<pid>.<12 hex digits>`, or `undefined` for any other text. */
function tempPid(middle: string): number | undefined {
  const dot = middle.indexOf('.');
  if (dot < 1 || dot > 10 || middle.length !== dot + 13) return undefined;
  for (let i = 0; i < middle.length; i++) {
    const c = middle.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (i < dot ? !digit : i > dot && !digit && !(c >= 0x61 && c <= 0x66)) return undefined;
  }
  return Number(middle.slice(0, dot));
}

/**
 * Refuses to replace a symbolic link: an atomic write renames a new file over `path`, which
 * would replace the link itself and leave the file it points to as it was.
 *
 * @param path - The file about to be replaced.
 * @throws {@link HarnessInputError} with `path` when `path` is a symbolic link, naming its target.
 */
export async function refuseSymlink(path: string): Promise<void> {
  let target: string;
  try {
    if (!(await lstat(path)).isSymbolicLink()) return;
    target = await readlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  throw new HarnessInputError(
    '',
    `expected a file, found a symbolic link to ${target}; write to ${resolve(dirname(path), target)} instead, ` +
      'or remove the link (a write renames a new file over the path: it would replace the link and leave its ' +
      'target as it was)',
    { path },
  );
}

/**
 * Replaces `path` with `data` atomically: writes a temp file beside it
 * (`.<name>.<pid>.<random>.tmp`), fsyncs it, renames it over `path`, then fsyncs the directory.
 * A crash at any point leaves either the old file or the new one, never a torn file (at most a
 * stray temp file, which readers ignore). Creates the directory when missing.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  hooks: AtomicWriteHooks = {},
): Promise<void> {
  const dir = dirname(path);
  const temp = await writeTemp(path, data);
  try {
    await hooks.beforeRename?.(temp);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    doneWith(temp);
  }
  await syncDirectory(dir);
}

/**
 * Creates `path` with `data` unless it exists, atomically and whole: writes a temp file beside
 * it, links it to `path` (which fails when `path` exists, in this process or another), removes
 * the temp file. Readers find no file or the whole one. When `durable` (the default), the temp
 * file and then the directory are fsynced, so a crash of the machine leaves no file or the whole
 * one too. Creates the directory when missing.
 *
 * @returns `true` when this call created `path`, `false` when it existed.
 */
export async function createFileExclusive(path: string, data: string | Uint8Array, durable = true): Promise<boolean> {
  const dir = dirname(path);
  const temp = await writeTemp(path, data, durable);
  try {
    try {
      await link(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } finally {
    await rm(temp, { force: true });
    doneWith(temp);
  }
  if (durable) await syncDirectory(dir);
  return true;
}
