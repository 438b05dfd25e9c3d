/** Small statistics helpers; every function copies before sorting and never mutates its input. */

/** The q-quantile (0..1) of `values` with linear interpolation; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  const high = sorted[upper]!;
  return low + (high - low) * (position - lower);
}

/** The median of `values`; NaN for an empty list. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The arithmetic mean of `values`; NaN for an empty list. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Milliseconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Process CPU time (user + system, every thread) in milliseconds, for `cpuMsSince`. */
export function cpuNow(): NodeJS.CpuUsage {
  return process.cpuUsage();
}

/** CPU milliseconds the process used since `start` (a `cpuNow()` reading). */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
