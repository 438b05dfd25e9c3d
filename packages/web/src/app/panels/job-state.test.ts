import { describe, expect, it } from 'vitest';

import type { BackgroundJob } from '../api/types';
import { jobSession, jobStateLabel } from './job-state';

const job = (fields: Partial<BackgroundJob>): BackgroundJob => ({
  id: 'j1',
  queue: 'default',
  priority: 0,
  appName: 'a',
  userId: 'u',
  message: { role: 'user', parts: [{ text: 'x' }] },
  state: 'pending',
  runAt: 0,
  attempt: 0,
  maxAttempts: 5,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
});

describe('job states as people read them', () => {
  it('says queued before the first attempt, retrying after a failed one, failed when dead', () => {
    expect(jobStateLabel(job({ state: 'pending', attempt: 0 }))).toBe('queued');
    expect(jobStateLabel(job({ state: 'pending', attempt: 2 }))).toBe('retrying');
    expect(jobStateLabel(job({ state: 'dead', attempt: 5 }))).toBe('failed');
    for (const state of ['running', 'completed', 'cancelled'] as const)
      expect(jobStateLabel(job({ state }))).toBe(state);
  });

  it("names the job's session: its own, else the worker's job-<id>", () => {
    expect(jobSession(job({ sessionId: 's1' }))).toBe('s1');
    expect(jobSession(job({}))).toBe('job-j1');
    expect(jobSession(job({ result: { finalText: '', eventCount: 2, sessionId: 'job-j1' } }))).toBe(
      'job-j1',
    );
  });
});
