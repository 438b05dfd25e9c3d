import { expect, it } from 'vitest';

import { onceUntilFailure } from '../src';

it('shares one run between concurrent and later callers', async () => {
  let runs = 0;
  const migrate = onceUntilFailure(async () => {
    runs++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return runs;
  });
  expect(await Promise.all([migrate(), migrate(), migrate()])).toEqual([1, 1, 1]);
  expect(await migrate()).toBe(1);
  expect(runs).toBe(1);
});

it('hands a failure to the callers of that run, and runs again on the next call', async () => {
  let runs = 0;
  const down = new TypeError('database down');
  const migrate = onceUntilFailure(async () => {
    runs++;
    if (runs === 1) throw down;
    return 'migrated';
  });
  const first = [migrate(), migrate()];
  await expect(first[0]).rejects.toBe(down);
  await expect(first[1]).rejects.toBe(down);
  expect(await migrate()).toBe('migrated');
  expect(await migrate()).toBe('migrated');
  expect(runs).toBe(2);
});
