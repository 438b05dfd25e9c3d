import { sessionServiceConformance } from '@adk/core/testing/vitest';
import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { afterAll, beforeAll } from 'vitest';

import { SqlSessionService } from '../src';

const temp = temporaryDirectory('adk-session-sql-');
let onFile: SqlSessionService;
let inMemory: SqlSessionService;

beforeAll(async () => {
  onFile = new SqlSessionService({
    db: sqliteKysely(temp.file('conformance.db'), { wal: true }),
    ownsDatabase: true,
  });
  await onFile.migrate();
  inMemory = await SqlSessionService.fromUrl('sqlite::memory:', { autoMigrate: true });
});

afterAll(async () => {
  await onFile.close();
  await inMemory.close();
  temp.remove();
});

sessionServiceConformance('SQLite file', () => onFile);
sessionServiceConformance('SQLite in memory, opened by URL with autoMigrate', () => inMemory);
