import type { BenchRow } from './row';
import {
  contractFloorRatioOf,
  floorGoalMet,
  floorRatioOf,
  goalMet,
  goalText,
  ratioOf,
} from './row';

/** A figure with three significant digits (integers above 1,000 keep every digit). */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toString();
}

/** The results as a Markdown table (printed to the terminal and pasted into docs/PERFORMANCE.md). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = [
    'Scenario',
    'Unit',
    'ADK for TypeScript',
    '@google/adk 2.0.0',
    'Ratio',
    'Goal',
    'Met',
    'Ideal floor',
    'Ours ÷ floor',
    'Floor goal',
    'Met',
    'Contract floor',
    'Ours ÷ contract floor',
  ];
  const body = rows.map((row) => {
    const ratio = ratioOf(row);
    const met = goalMet(row);
    const floorRatio = floorRatioOf(row);
    const floorMet = floorGoalMet(row);
    const contractRatio = contractFloorRatioOf(row);
    return [
      row.label,
      row.unit,
      formatNumber(row.ours),
      formatNumber(row.theirs),
      ratio === undefined ? 'n/a' : `${formatNumber(ratio)}x`,
      goalText(row.goal, row.unit),
      met === undefined ? '' : met ? 'yes' : 'NO',
      formatNumber(row.floor),
      floorRatio === undefined ? 'n/a' : `${formatNumber(floorRatio)}x`,
      row.floorGoal === undefined
        ? ''
        : `${row.floorGoal.op === '<=' ? '≤' : '≥'} ${row.floorGoal.target}x`,
      floorMet === undefined ? '' : floorMet ? 'yes' : 'NO',
      formatNumber(row.contractFloor),
      contractRatio === undefined ? 'n/a' : `${formatNumber(contractRatio)}x`,
    ];
  });
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...body.map((line) => line[i]!.length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}
