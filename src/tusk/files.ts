/**
 * File primitives of the harness stores: atomic replacement (temp file, fsync, rename, fsync of
 * the directory), one writer at a time per path within a process, and reads that tell a missing
 * file from an unreadable one. Internal.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

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

/**
 * Writes `data` to a new temp file beside `path` (`.<name>.<pid>.<random>.tmp`, creating the
 * directory when missing) and fsyncs it; removes it when the write fails.
 *
 * @returns The temp file's path.
 */
async function writeTemp(path: string, data: string | Uint8Array): Promise<string> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
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
  }
  await syncDirectory(dir);
}

/**
 * Creates `path` with `data` unless it exists, atomically and whole: writes and fsyncs a temp
 * file beside it, links it to `path` (which fails when `path` exists, in this process or
 * another), removes the temp file and fsyncs the directory. A crash leaves no file or the whole
 * one. Creates the directory when missing.
 *
 * @returns `true` when this call created `path`, `false` when it existed.
 */
export async function createFileExclusive(path: string, data: string): Promise<boolean> {
  const dir = dirname(path);
  const temp = await writeTemp(path, data);
  try {
    try {
      await link(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } finally {
    await rm(temp, { force: true });
  }
  await syncDirectory(dir);
  return true;
}
