import { sessionServiceConformance } from '@adk/core/testing';
import { afterAll, beforeAll, describe } from 'vitest';

import { SqlSessionService } from '../src';
import {
  createSchema,
  dropSchema,
  postgresAvailable,
  postgresKysely,
  randomSchemaName,
} from './helpers';

const available = await postgresAvailable();
const schema = randomSchemaName();
let service: SqlSessionService;

describe.skipIf(!available)('PostgreSQL', () => {
  beforeAll(async () => {
    await createSchema(schema);
    service = new SqlSessionService({ db: postgresKysely(schema), ownsDatabase: true });
    await service.migrate();
  });

  afterAll(async () => {
    await service?.close();
    await dropSchema(schema);
  });

  sessionServiceConformance('PostgreSQL', () => service);
});
