import {
  POSTGRES_URL,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
} from '@adk/test-databases';
import { afterAll, beforeAll, describe } from 'vitest';

import { GraphileJobStore } from '../src/graphile';
import { jobStoreConformance } from '../src/testing/vitest';

// Under CI=true an unreachable PostgreSQL throws here: its tests fail, never skip.
const skip = await postgresUnavailable();
const schema = postgresSchemaName('jobs_gw');
const stores: GraphileJobStore[] = [];

function store() {
  const made = new GraphileJobStore({ connectionString: POSTGRES_URL, schema });
  stores.push(made);
  return made;
}

beforeAll(async () => {
  if (skip === undefined) await store().migrate();
});
afterAll(async () => {
  for (const made of stores) await made.close();
  if (skip === undefined) await dropPostgresSchema(schema);
});

describe.skipIf(skip !== undefined)('GraphileJobStore', () => {
  jobStoreConformance('GraphileJobStore on PostgreSQL', {
    kind: 'queue-engine',
    makeStore: (clock) => {
      const made = new GraphileJobStore({ connectionString: POSTGRES_URL, schema, clock });
      stores.push(made);
      return made;
    },
  });
});
