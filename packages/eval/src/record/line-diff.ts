/** Lines that differ between two texts, at most this many per side, to bound the work. */
const MAX_LINES = 4000;

/**
 * A line diff of `before` and `after` (longest common subsequence): unchanged lines start with
 * two spaces, removed ones with `- `, added ones with `+ `. Runs of more than `context` unchanged
 * lines are folded to `  ...`.
 */
export function lineDiff(
  before: string,
  after: string,
  context = 2,
): { text: string; changes: number } {
  const a = before.split('\n').slice(0, MAX_LINES);
  const b = after.split('\n').slice(0, MAX_LINES);
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const lines: string[] = [];
  let changes = 0;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      lines.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) {
      lines.push(`+ ${b[j]}`);
      changes++;
      j++;
    } else {
      lines.push(`- ${a[i]}`);
      changes++;
      i++;
    }
  }
  const keep = lines.map((line, index) =>
    lines.slice(Math.max(0, index - context), index + context + 1).some((l) => !l.startsWith('  ')),
  );
  const folded: string[] = [];
  lines.forEach((line, index) => {
    if (keep[index]) folded.push(line);
    else if (folded.at(-1) !== '  ...') folded.push('  ...');
  });
  return { text: folded.join('\n'), changes };
}
