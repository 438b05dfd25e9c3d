import type { EvalSetOutcome } from './runner/evaluate-eval-set';
import type { EvalStatus } from './schema';

const LABEL: Record<EvalStatus, string> = { 1: 'PASSED', 2: 'FAILED', 3: 'NOT_EVALUATED' };

/** `PASSED`, `FAILED` or `NOT_EVALUATED`. */
export function statusLabel(status: EvalStatus): string {
  return LABEL[status];
}

/** An error for the table's footer: its first lines (a replay miss carries a long diff). */
function errorLines(error: string): string {
  const lines = error.split('\n');
  const shown = lines.slice(0, ERROR_LINES).join('\n  ');
  return lines.length > ERROR_LINES
    ? `${shown}\n  (${lines.length - ERROR_LINES} more lines)`
    : shown;
}

const ERROR_LINES = 24;

/**
 * A plain-text table of an outcome: one row per case and metric with the score, the threshold
 * and the status (`ERROR` for a case that could not be run to an answer, its error below the
 * table), then a totals line.
 */
export function formatOutcomeTable(outcome: EvalSetOutcome): string {
  const rows: string[][] = [['case', 'metric', 'score', 'threshold', 'status']];
  for (const summary of outcome.cases) {
    if (summary.errors.length > 0) {
      rows.push([summary.evalId, '-', '-', '-', 'ERROR']);
      continue;
    }
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
  const errored = outcome.cases.filter((c) => c.errors.length > 0);
  for (const summary of errored) {
    lines.push('', `${summary.evalId}: ${errorLines(summary.errors[0]!)}`);
    if (summary.errors.length > 1) lines.push(`  (and ${summary.errors.length - 1} more run(s))`);
  }
  const passed = outcome.cases.filter((c) => c.evalStatus === 1).length;
  const failed = outcome.cases.filter((c) => c.evalStatus === 2 && c.errors.length === 0).length;
  const notEvaluated = outcome.cases.length - passed - failed - errored.length;
  lines.push(
    '',
    `${outcome.evalSetId}: ${passed} passed, ${failed} failed, ${notEvaluated} not evaluated${
      errored.length > 0 ? `, ${errored.length} with errors` : ''
    }`,
  );
  return lines.join('\n');
}
