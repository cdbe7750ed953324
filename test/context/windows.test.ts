// Which periods the context pack shows at which detail, by the calendar alone.
import { describe, expect, it } from 'vitest';
import { contextWindows } from '../../src/context/windows.js';
import { halvingAllowances } from '../../src/context/pack.js';
import type { LocalDate } from '../../src/time/calendar.js';

const w = (d: string) => contextWindows(d as LocalDate);

describe('context windows', () => {
  it('shows this ISO week at daily detail from Wednesday on, and last week too on Monday and Tuesday', () => {
    expect(w('2026-04-15').days).toEqual(['2026-04-15', '2026-04-14', '2026-04-13']);
    expect(w('2026-04-13').days).toHaveLength(8); // Monday: back to the Monday before
    expect(w('2026-04-13').days.at(-1)).toBe('2026-04-06');
  });

  it('covers the weeks before back to a month boundary, then three months, leaving no gap', () => {
    const x = w('2026-04-15');
    // Back to the first week touching March (the month three weeks before the daily window).
    expect(x.weeks).toEqual(['2026-W15', '2026-W14', '2026-W13', '2026-W12', '2026-W11', '2026-W10', '2026-W09']);
    expect(x.months).toEqual(['2026-02', '2026-01', '2025-12']);
    expect(x.rootOnlyBefore).toBe('2025-12-01');
    // Across a year boundary, with ISO week-years (2026-W01 starts on 2025-12-29).
    const y = w('2026-01-07');
    expect(y.days.at(-1)).toBe('2026-01-05');
    expect(y.weeks[0]).toBe('2026-W01');
    expect(y.weeks.at(-1)).toBe('2025-W49');
    expect(y.months[0]).toBe('2025-11');
  });

  it('gives each older node half the allowance of the one before, down to an eighth', () => {
    expect(halvingAllowances(5, 1000)).toEqual([500, 250, 125, 62, 62]);
    expect(halvingAllowances(1, 1000)).toEqual([1000]);
  });
});
