/**
 * Vitest support: `expect(await evaluate(agent, 'x.evalset.json')).toPass()`. Import this entry
 * point (`@adk/eval/vitest`) from a test file or a setup file; the main entry never imports vitest.
 */
import { expect } from 'vitest';

import { formatOutcomeTable } from '../format-outcome';
import type { EvalSetOutcome } from '../runner/evaluate-eval-set';

export { evaluate, type EvaluateOptions } from '../evaluate';

function isOutcome(value: unknown): value is EvalSetOutcome {
  return (
    typeof value === 'object' && value !== null && Array.isArray((value as EvalSetOutcome).cases)
  );
}

expect.extend({
  toPass(received: unknown) {
    if (!isOutcome(received)) {
      return {
        pass: false,
        message: () => 'expected the outcome of evaluate() (an EvalSetOutcome)',
      };
    }
    return {
      pass: received.passed,
      message: () =>
        received.passed
          ? `expected eval set ${received.evalSetId} to fail, but every case passed:\n${formatOutcomeTable(received)}`
          : `expected eval set ${received.evalSetId} to pass:\n${formatOutcomeTable(received)}`,
    };
  },
});

interface EvalMatchers<R = unknown> {
  /** The eval outcome has no failed case (every metric met its threshold). */
  toPass(): R;
}

declare module 'vitest' {
  // `Matchers` is what vitest 3.2+ merges into `expect(...)` and its asymmetric matchers
  // (`Assertion` is a re-export there: augmenting it does not reach users' projects). Its
  // parameter is `T = any` in vitest's own declaration.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends EvalMatchers<T> {}
}
