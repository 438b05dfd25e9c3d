import { sessionServiceConformance } from '@adk/core/testing';
import { afterAll, beforeAll } from 'vitest';

import { SqlSessionService } from '../src';
import { sqliteKysely, tempDir } from './helpers';

const temp = tempDir();
let service: SqlSessionService;

beforeAll(async () => {
  service = new SqlSessionService({
    db: sqliteKysely(temp.file('conformance.db')),
    ownsDatabase: true,
  });
  await service.migrate();
});

afterAll(async () => {
  await service.close();
  temp.remove();
});

sessionServiceConformance('SQLite file', () => service);
