import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { SqliteSessionStore } from '../src/chat/sqlite.ts';
import { restartAndResume } from './restart.ts';

it('resumes in a new process a turn that an exited process suspended (SQLite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'turngate-restart-'));
  const file = join(dir, 'chat.db');
  let store: SqliteSessionStore | undefined;
  try {
    await restartAndResume(['sqlite', file], () => {
      store = new SqliteSessionStore(file);
      return store;
    });
  } finally {
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
