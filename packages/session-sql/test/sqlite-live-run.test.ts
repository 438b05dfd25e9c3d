import { liveRunConformance } from '@adk/core/testing/vitest';
import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { afterAll, beforeAll } from 'vitest';

import { SqlSessionService } from '../src';

// Live runs store transcripts, turn boundaries, usage and resumption handles: on a real SQLite file.
const temp = temporaryDirectory('adk-session-sql-live-');
let service: SqlSessionService;

beforeAll(async () => {
  service = new SqlSessionService({
    db: sqliteKysely(temp.file('live.db'), { wal: true }),
    ownsDatabase: true,
  });
  await service.migrate();
});

afterAll(async () => {
  await service.close();
  temp.remove();
});

liveRunConformance('SQLite file', () => service);
