import type { EvalSetOutcome } from './runner/evaluate-eval-set';
import type { EvalStatus } from './schema';

const LABEL: Record<EvalStatus, string> = { 1: 'PASSED', 2: 'FAILED', 3: 'NOT_EVALUATED' };

/** `PASSED`, `FAILED` or `NOT_EVALUATED`. */
export function statusLabel(status: EvalStatus): string {
  return LABEL[status];
}

/**
 * A plain-text table of an outcome: one row per case and metric with the score, the threshold
 * and the status, then a totals line.
 */
export function formatOutcomeTable(outcome: EvalSetOutcome): string {
  const rows: string[][] = [['case', 'metric', 'score', 'threshold', 'status']];
  for (const summary of outcome.cases) {
    if (summary.metrics.length === 0)
      rows.push([summary.evalId, '-', '-', '-', statusLabel(summary.evalStatus)]);
    for (const metric of summary.metrics) {
      rows.push([
        summary.evalId,
        metric.metricName,
        metric.score === undefined ? '-' : metric.score.toFixed(3),
        String(metric.threshold),
        statusLabel(metric.evalStatus),
      ]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  const passed = outcome.cases.filter((c) => c.evalStatus === 1).length;
  const failed = outcome.cases.filter((c) => c.evalStatus === 2).length;
  lines.push(
    '',
    `${outcome.evalSetId}: ${passed} passed, ${failed} failed, ${outcome.cases.length - passed - failed} not evaluated`,
  );
  return lines.join('\n');
}
