// A plan whose dates are behind is history (summarize/facts/past.ts): the worked dates of its header.
import { describe, expect, it } from 'vitest';
import { isPastPlan } from '../../src/summarize/facts/past.js';
import type { LocalDate } from '../../src/time/calendar.js';

const said = '2026-11-05' as LocalDate;
const on = (d: string) => d as LocalDate;

describe('isPastPlan', () => {
  it('a dated appointment is past from the day after it', () => {
    const text = 'Dentist appointment 2026-11-19 at 09:30, block the morning';
    expect(isPastPlan(text, said, on('2026-11-19'))).toBe(false);
    expect(isPastPlan(text, said, on('2026-11-20'))).toBe(true);
  });

  it('"the week of" a date runs to that week\'s Sunday', () => {
    const text = "I'm on call the week of 2026-11-09; no deep work that week";
    expect(isPastPlan(text, said, on('2026-11-15'))).toBe(false);
    expect(isPastPlan(text, said, on('2026-11-16'))).toBe(true);
  });

  it('a fact naming several dates is past after the latest', () => {
    const text = 'Offsite on 2026-11-10, the report is due 2026-12-04';
    expect(isPastPlan(text, said, on('2026-11-20'))).toBe(false);
    expect(isPastPlan(text, said, on('2026-12-05'))).toBe(true);
  });

  it('a date already behind when said is a start, not a plan; no date, no verdict', () => {
    expect(isPastPlan('I joined Lindenhof Labs on 2024-03-01', said, on('2026-11-23'))).toBe(false);
    expect(isPastPlan('Dentist next Thursday at 09:30', said, on('2027-01-01'))).toBe(false);
    expect(isPastPlan('Deadline 2026-13-45 for the draft', said, on('2027-01-01'))).toBe(false);
  });

  it('a part of the day it was said, or tomorrow, is a date too', () => {
    const day = on('2026-11-19');
    expect(isPastPlan('Dentist this morning; working from 13:00', day, day)).toBe(false);
    expect(isPastPlan('Dentist this morning; working from 13:00', day, on('2026-11-20'))).toBe(true);
    expect(isPastPlan('Dinner with Ana tonight', day, on('2026-11-20'))).toBe(true);
    expect(isPastPlan('Flight to Lisbon tomorrow at 07:10', day, on('2026-11-20'))).toBe(false);
    expect(isPastPlan('Flight to Lisbon tomorrow at 07:10', day, on('2026-11-21'))).toBe(true);
    // A name's word, or "today" (as often "these days", or the start of what goes on), is not.
    expect(isPastPlan('I made a this morning routine playlist called Rise and Shine', day, on('2027-01-01'))).toBe(false);
    expect(isPastPlan('I just started using a white noise machine today', day, on('2027-01-01'))).toBe(false);
  });

  it('an event on the day it was said is past the next day', () => {
    expect(isPastPlan('Dentist this morning, 2026-11-19; working from 13:00', on('2026-11-19'), on('2026-11-20'))).toBe(true);
  });
});
