import { openTestDatabases } from '@adk/test-databases';
import { afterAll, beforeAll, describe } from 'vitest';

import { SqlJobStore } from '../src';
import { jobStoreConformance } from '../src/testing/vitest';

// Under CI=true an unreachable PostgreSQL throws here: its tests fail, never skip.
const databases = await openTestDatabases('jobs');

beforeAll(async () => {
  await new SqlJobStore({ db: databases.sqlite.db }).migrate();
  if (databases.postgres) await new SqlJobStore({ db: databases.postgres.db }).migrate();
});
afterAll(() => databases.close());

jobStoreConformance(
  'SqlJobStore on a SQLite file',
  (clock) => new SqlJobStore({ db: databases.sqlite.db, clock }),
);

describe.skipIf(databases.skipPostgres !== undefined)('PostgreSQL', () => {
  jobStoreConformance(
    'SqlJobStore on PostgreSQL',
    (clock) => new SqlJobStore({ db: databases.postgres!.db, clock }),
  );
});
