import { describe, expect, it } from 'vitest';

import { metricText, runsOfSet, statusName, toolUses } from './eval-format';

describe('eval results as the history shows them', () => {
  it("finds a set's runs among the app's result ids, newest first, without a set whose id extends it", () => {
    const ids = [
      'app_smoke_1700000000.5',
      'app_smoke_extra_1700000100',
      'app_smoke_1700000200',
      'other_smoke_1700000300',
      'app_smoke_',
    ];
    expect(runsOfSet(ids, 'app', 'smoke')).toEqual([
      { id: 'app_smoke_1700000200', seconds: 1700000200 },
      { id: 'app_smoke_1700000000.5', seconds: 1700000000.5 },
    ]);
    expect(runsOfSet(ids, 'app', 'smoke_extra').map((run) => run.id)).toEqual([
      'app_smoke_extra_1700000100',
    ]);
  });

  it('reads tool calls from toolUses or from the invocation events', () => {
    expect(toolUses({ intermediateData: { toolUses: [{ name: 'a', args: { x: 1 } }] } })).toEqual([
      { name: 'a', args: { x: 1 } },
    ]);
    expect(
      toolUses({
        intermediateData: {
          invocationEvents: [
            { author: 'agent', content: { parts: [{ functionCall: { name: 'b', args: {} } }] } },
            { author: 'agent', content: { parts: [{ text: 'done' }] } },
          ],
        },
      }),
    ).toEqual([{ name: 'b', args: {} }]);
    expect(toolUses(undefined)).toEqual([]);
  });

  it('writes a metric with its score, threshold and status, in either spelling', () => {
    expect(metricText({ metricName: 'm', score: 0.5, threshold: 0.8, evalStatus: 2 })).toBe(
      'm: 0.50 / 0.8 (FAILED)',
    );
    expect(metricText({ metric_name: 'm', threshold: 1, eval_status: 'EvalStatus.PASSED' })).toBe(
      'm: — / 1 (PASSED)',
    );
    expect(statusName(3)).toBe('NOT_EVALUATED');
  });
});
