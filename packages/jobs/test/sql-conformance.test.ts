import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { afterAll, beforeAll } from 'vitest';

import { SqlJobStore } from '../src';
import { jobStoreConformance } from '../src/testing/vitest';

const temp = temporaryDirectory('adk-jobs-conformance-');
const db = sqliteKysely(temp.file('jobs.db'), { wal: true });

beforeAll(() => new SqlJobStore({ db }).migrate());
afterAll(async () => {
  await db.destroy();
  temp.remove();
});

jobStoreConformance('SqlJobStore on a SQLite file', (clock) => new SqlJobStore({ db, clock }));
