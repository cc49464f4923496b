/**
 * Ages of day files, in whole calendar days, from an injected clock and the
 * configured time zone (no hidden `new Date()`): a file dated today is 0 days
 * old, yesterday's is 1.
 */
import { localDateTime } from '../platform/time-zone.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(date: string): number {
  const m = DATE.exec(date);
  if (!m) throw new Error(`Not a YYYY-MM-DD date: "${date}"`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
}

export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** Local calendar date of `now` in the zone. */
export function localToday(now: Date, timeZone: string): string {
  return localDateTime(now, timeZone).date;
}

/** Whole days from `date` to `today` (negative for a future date). */
export function ageInDays(date: string, today: string): number {
  return Math.round(dayNumber(today) - dayNumber(date));
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * 86_400_000).toISOString().slice(0, 10);
}
