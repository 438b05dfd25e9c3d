import { sessionServiceConformance } from '@adk/core/testing/vitest';
import {
  createPostgresSchema,
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
} from '@adk/test-databases';
import { afterAll, beforeAll, describe } from 'vitest';

import { SqlSessionService } from '../src';

const available = (await postgresUnavailable()) === undefined;
const schema = postgresSchemaName();
let service: SqlSessionService;

describe.skipIf(!available)('PostgreSQL', () => {
  beforeAll(async () => {
    await createPostgresSchema(schema);
    service = new SqlSessionService({ db: postgresKysely(schema, { max: 4 }), ownsDatabase: true });
    await service.migrate();
  });

  afterAll(async () => {
    await service?.close();
    await dropPostgresSchema(schema);
  });

  sessionServiceConformance('PostgreSQL', () => service);
});
