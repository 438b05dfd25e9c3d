import { describe } from 'vitest';

import type { SessionService } from '../sessions';
import { defineConcurrencyTests } from './session-conformance-concurrency';
import { defineConfirmationTests } from './session-conformance-confirmations';
import { useConformanceContext } from './session-conformance-context';
import { defineEventTests } from './session-conformance-events';
import { defineIsolationTests } from './session-conformance-isolation';
import { defineLifecycleTests } from './session-conformance-lifecycle';
import { defineRewindTests } from './session-conformance-rewind';
import { defineStateTests } from './session-conformance-state';
import { defineTextTests } from './session-conformance-text';

/**
 * The behaviour every {@link SessionService} must have, as a vitest suite: create/get/list/delete,
 * ids and duplicate ids, prefix routing of state across sessions and users, `temp:` never stored,
 * shallow merge and null values, event windows, partial events refused, reads racing appends (each
 * event once, in order, with the state of one snapshot), the stale rule, isolation of objects passed
 * in and handed out, text with lone UTF-16 surrogates refused, a lossless round-trip of every
 * `Event` field, a confirmation deadline that holds across a restart, and `Runner.rewind` (state,
 * contents and routing restored by one appended event); the last two run through a `Runner` on the
 * store.
 *
 * Call it inside a test file. `makeService` runs before each test; it may return a shared instance
 * (for example one per database), since every test works in its own freshly named app.
 *
 * @example
 * ```ts
 * import { sessionServiceConformance } from '@adk/core/testing/vitest';
 * import { InMemorySessionService } from '@adk/core';
 *
 * sessionServiceConformance('in-memory', () => new InMemorySessionService());
 * ```
 */
export function sessionServiceConformance(
  label: string,
  makeService: () => Promise<SessionService> | SessionService,
): void {
  describe(`SessionService conformance: ${label}`, () => {
    const ctx = useConformanceContext(makeService);
    defineLifecycleTests(ctx);
    defineStateTests(ctx);
    defineEventTests(ctx);
    defineConcurrencyTests(ctx);
    defineIsolationTests(ctx);
    defineTextTests(ctx);
    defineConfirmationTests(ctx);
    defineRewindTests(ctx);
  });
}
