import { describe, expect, it } from 'vitest';

import { formatDuration, formatWhen, toMillis } from './time';

describe('wire timestamps', () => {
  it('reads seconds (Python server, adk web) and milliseconds (@google/adk) as the same date', () => {
    const ms = Date.UTC(2026, 10, 25, 23, 0, 0);
    expect(toMillis(ms / 1000)).toBe(ms);
    expect(toMillis(ms)).toBe(ms);
    expect(new Date(toMillis(1764111600.123)).getUTCFullYear()).toBe(2025);
  });

  it('shows the time only for today, the date otherwise', () => {
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    expect(formatWhen(now / 1000, now)).not.toMatch(/2026/);
    expect(formatWhen(Date.UTC(2024, 0, 2, 12) / 1000, now)).toMatch(/2024/);
  });

  it('formats durations', () => {
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(1250)).toBe('1.25 s');
  });
});
