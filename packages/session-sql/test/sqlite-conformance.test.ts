import { sessionServiceConformance } from '@adk/core/testing';
import { afterAll, beforeAll } from 'vitest';

import { SqlSessionService } from '../src';
import { sqliteKysely, tempDir } from './helpers';

const temp = tempDir();
let onFile: SqlSessionService;
let inMemory: SqlSessionService;

beforeAll(async () => {
  onFile = new SqlSessionService({
    db: sqliteKysely(temp.file('conformance.db')),
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
