import { REDIS_URL, dropRedisPrefix, redisPrefix, redisUnavailable } from '@adk/test-databases';
import { afterAll, describe } from 'vitest';

import { BullMqJobStore } from '../src/bullmq';
import { jobStoreConformance } from '../src/testing/vitest';

// Under CI=true an unreachable Redis throws here: its tests fail, never skip.
const skip = await redisUnavailable();
const prefix = redisPrefix('conformance');
const stores: BullMqJobStore[] = [];

afterAll(async () => {
  for (const store of stores) await store.close();
  if (skip === undefined) await dropRedisPrefix(prefix);
});

describe.skipIf(skip !== undefined)('BullMqJobStore', () => {
  jobStoreConformance('BullMqJobStore on Redis', {
    kind: 'queue-engine',
    makeStore: (clock) => {
      const store = new BullMqJobStore({ url: REDIS_URL, prefix, clock });
      stores.push(store);
      return store;
    },
  });
});
