/**
 * Calendar helpers for the heuristic Observer: the local date/time of an
 * instant in an IANA time zone, and anchoring relative date expressions
 * ("tomorrow", "next Friday", "last week", "내일", "다음 주 금요일") to real
 * dates. Pure functions; the clock is always passed in.
 *
 * Size: one concept, the calendar of dates said in words, in English and Korean — the day arithmetic and
 * the tables of date expressions, English (`EN_RULES`) and Korean (`KO_RULES`), that the anchors are found with.
 */
import { anyOf, oneOf, pattern } from '../../core/pattern.js';
import { fixedZoneOffsetMs, zonedFields, zoneOffsetMs } from '../../platform/time-zone.js';

/** A calendar day, independent of any time zone. */
export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
}

export interface LocalDateTime extends CalendarDay {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM (24 h) */
  time: string;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Is this a time zone Intl knows? */
export function isValidTimeZone(timeZone: string): boolean {
  // UTC and fixed offsets are known without Intl, whose first formatter loads ICU's locale data
  // (≈ 25 ms, in the Observer's worker thread too).
  if (formatters.has(timeZone) || fixedZoneOffsetMs(timeZone) !== undefined) return true;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The local date and time of an ISO instant in `timeZone`. Returns undefined
 * when the instant cannot be parsed. An unknown time zone falls back to UTC.
 */
export function localDateTime(iso: string, timeZone: string): LocalDateTime | undefined {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return undefined;
  const f = zonedFields(ms, isValidTimeZone(timeZone) ? timeZone : 'UTC');
  return { year: f.year, month: f.month, day: f.day, date: formatDay(f), time: `${pad(f.hour)}:${pad(f.minute)}`, weekday: f.weekday };
}

/**
 * Days from 1970-01-01 to a (proleptic Gregorian) date, as `Date.UTC(year, month - 1, day) / 86_400_000`
 * for month 1–12 (H. Hinnant's days_from_civil; Date.UTC itself is slow to call).
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** "HH:MM" of each minute of a day, built on first use. */
let clockTimes: string[] | undefined;

/**
 * localDateTime() for many instants in one zone, as a function of epoch ms:
 * the zone offset is looked up once per UTC quarter-hour (zones change offset
 * only on quarter-hour boundaries), the date fields once per local day and the
 * result once per local minute — messages come seconds apart. Same values as
 * localDateTime(); an unknown zone falls back to UTC.
 */
export function localClock(timeZone: string): (ms: number) => LocalDateTime {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const times = (clockTimes ??= Array.from({ length: 1440 }, (_, m) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`));
  let bucket = NaN;
  let offset = 0;
  let minute = NaN;
  let dayNumber = NaN;
  let day = { year: 0, month: 0, day: 0, date: '', weekday: 0 };
  let last: LocalDateTime | undefined;
  return (ms) => {
    const b = Math.floor(ms / 900_000);
    if (b !== bucket) {
      bucket = b;
      offset = zoneOffsetMs(ms, zone);
    }
    const localMinute = Math.floor((ms + offset) / 60_000);
    if (localMinute === minute && last) return last;
    minute = localMinute;
    const d = Math.floor(localMinute / 1440);
    if (d !== dayNumber) {
      dayNumber = d;
      const at = new Date(d * 86_400_000);
      const fields = { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
      day = { ...fields, date: formatDay(fields), weekday: at.getUTCDay() };
    }
    last = { year: day.year, month: day.month, day: day.day, date: day.date, time: times[localMinute - d * 1440]!, weekday: day.weekday };
    return last;
  };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function formatDay(d: CalendarDay): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

function fromUtc(date: Date): CalendarDay {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * Days since 1970-01-01 of a calendar day: `Date.UTC(year, month - 1, day) / 86_400_000`
 * (the day may run past its month). Calendar arithmetic on day numbers allocates no
 * Date; months 1–12 of years 100–200000 are computed, anything else is Date.UTC's
 * (which reads years 0–99 as 1900–1999, and gives NaN out of its range).
 */
function dayNumber(d: CalendarDay): number {
  const { year, month, day } = d;
  if (
    year >= 100 &&
    year <= 200_000 &&
    month >= 1 &&
    month <= 12 &&
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    Math.abs(day) <= 1_000_000
  ) {
    return daysSinceEpoch(year, month, day);
  }
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** The calendar day of a day number, as Date reads it (H. Hinnant's civil_from_days; NaN fields outside Date's range). */
function dayOf(n: number): CalendarDay {
  if (!(Math.abs(n) <= 100_000_000)) return fromUtc(new Date(n * 86_400_000));
  const z = n + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day: dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1 };
}

export function weekdayOf(d: CalendarDay): number {
  // 1970-01-01 was a Thursday.
  return ((dayNumber(d) % 7) + 11) % 7;
}

export function addDays(d: CalendarDay, days: number): CalendarDay {
  return dayOf(dayNumber(d) + days);
}

/** Monday of the week containing `d` (weeks start on Monday). */
export function mondayOf(d: CalendarDay): CalendarDay {
  const wd = weekdayOf(d);
  return addDays(d, -((wd + 6) % 7));
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

function monthLabel(year: number, month: number): string {
  const m = (((month - 1) % 12) + 12) % 12;
  const y = year + Math.floor((month - 1) / 12);
  return `${MONTH_NAMES[m]} ${y}`;
}

/** Which way a bare weekday ("on Friday") points, from the sentence's tense. */
export type Direction = 'past' | 'future';

/** The occurrence of `weekday` nearest to `ref` in `direction` (same day counts for the future). */
function nearestWeekday(ref: CalendarDay, weekday: number, direction: Direction): CalendarDay {
  const wd = weekdayOf(ref);
  if (direction === 'future') return addDays(ref, (weekday - wd + 7) % 7);
  const back = (wd - weekday + 7) % 7 || 7;
  return addDays(ref, -back);
}

/** `weekday` (0 = Sunday) in the week (Mon–Sun) that starts `weeksFromNow` weeks from ref's week. */
function weekdayInWeek(ref: CalendarDay, weekday: number, weeksFromNow: number): CalendarDay {
  const monday = addDays(mondayOf(ref), 7 * weeksFromNow);
  return addDays(monday, (weekday + 6) % 7);
}

const EN_WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
const KO_WEEKDAYS: Record<string, number> = { 일: 0, 월: 1, 화: 2, 수: 3, 목: 4, 금: 5, 토: 6 };

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  'a couple of': 2,
  'a couple': 2,
};

/** One relative expression found in a sentence and the date it resolves to. */
export interface DateAnchor {
  /** The expression as written. */
  expression: string;
  /** What was appended after it, e.g. "2026-04-17", "week of 2026-04-13", "April 2026", "2025". */
  resolved: string;
  /** The first day it refers to (for deadlines). */
  day: CalendarDay;
  /** True when the expression points into the future (relative to the message). */
  future: boolean;
  /** Index of the end of the expression in the original sentence. */
  end: number;
  /** The expression already says the whole date ("May 15, 2026"): nothing is appended. */
  written?: boolean;
}

interface Rule {
  re: RegExp;
  /** Date words (DateWord bits) the pattern needs one of; a sentence without any skips it. Korean rules: none, always tried. */
  words?: number;
  resolve: (
    m: RegExpExecArray,
    ref: CalendarDay,
    direction: Direction,
  ) => { resolved: string; day: CalendarDay; future: boolean; written?: boolean } | undefined;
}

function dayResult(day: CalendarDay, ref: CalendarDay): { resolved: string; day: CalendarDay; future: boolean } {
  return { resolved: formatDay(day), day, future: dayNumber(day) >= dayNumber(ref) };
}

function weekResult(monday: CalendarDay, future: boolean) {
  return { resolved: `week of ${formatDay(monday)}`, day: monday, future };
}

function monthResult(ref: CalendarDay, offset: number) {
  const first = fromUtc(new Date(Date.UTC(ref.year, ref.month - 1 + offset, 1)));
  return { resolved: monthLabel(first.year, first.month), day: first, future: offset >= 0 };
}

function yearResult(ref: CalendarDay, offset: number) {
  const year = ref.year + offset;
  return { resolved: String(year), day: { year, month: 1, day: 1 }, future: offset >= 0 };
}

function count(word: string): number | undefined {
  const w = word.toLowerCase().trim();
  if (/^\d+$/.test(w)) return Number(w);
  return NUMBER_WORDS[w];
}

function unitShift(ref: CalendarDay, n: number, unit: string, sign: 1 | -1) {
  const u = unit.toLowerCase();
  if (u.startsWith('day') || u === '일') return dayResult(addDays(ref, sign * n), ref);
  if (u.startsWith('week') || u === '주') return weekResult(mondayOf(addDays(ref, sign * 7 * n)), sign > 0);
  if (u.startsWith('month') || u === '달' || u === '개월') return monthResult(ref, sign * n);
  if (u.startsWith('year') || u === '년' || u === '해') return yearResult(ref, sign * n);
  return undefined;
}

/** Words that English date expressions start from, as bits (`Rule.words`). */
const W = {
  TOMORROW: 1,
  YESTERDAY: 2,
  NIGHT: 4,
  TODAY: 8,
  DAYTIME: 16,
  WEEKDAY: 32,
  WEEK: 64,
  MONTH: 128,
  YEAR: 256,
  DAY: 512,
  MONTH_NAME: 1024,
} as const;

/**
 * The word starts every English rule needs one of, case-insensitively, after `\b`
 * (`month` before `mon`, so that each is told apart), and their bits.
 */
const DATE_WORD = pattern(
  [
    /\b/,
    anyOf(
      ...['tomorrow', 'tmr', 'yesterday', 'night', 'today', 'tonight', 'morning', 'afternoon', 'evening', 'month'],
      ...['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'week', 'year', 'day'],
      ...['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
    ),
  ],
  'gi',
);
const DATE_WORD_BITS = new Map<string, number>([
  ['tomorrow', W.TOMORROW],
  ['tmr', W.TOMORROW],
  ['yesterday', W.YESTERDAY],
  ['night', W.NIGHT],
  ['today', W.TODAY],
  ['tonight', W.TODAY],
  ['morning', W.DAYTIME],
  ['afternoon', W.DAYTIME],
  ['evening', W.DAYTIME],
  ['month', W.MONTH],
  ['mon', W.WEEKDAY],
  ['tue', W.WEEKDAY],
  ['wed', W.WEEKDAY],
  ['thu', W.WEEKDAY],
  ['fri', W.WEEKDAY],
  ['sat', W.WEEKDAY],
  ['sun', W.WEEKDAY],
  ['week', W.WEEK],
  ['year', W.YEAR],
  ['day', W.DAY],
  ...['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((m): [string, number] => [m, W.MONTH_NAME]),
]);

/** The date words of `sentence` as W bits (0 for most sentences: the first search fails). */
function dateWordsIn(sentence: string): number {
  let found = 0;
  DATE_WORD.lastIndex = 0;
  for (let m = DATE_WORD.exec(sentence); m; m = DATE_WORD.exec(sentence)) found |= DATE_WORD_BITS.get(m[0].toLowerCase())!;
  return found;
}

/** The day of a month of the calendar, or undefined when the month has no such day (February 30). */
function calendarDay(year: number, month: number, day: number): CalendarDay | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const d = dayOf(dayNumber({ year, month, day }));
  return d.month === month ? d : undefined;
}

/**
 * A date written without its year ("friday may 15", "15 May", "11월 13일 금요일"): the year is the one whose
 * date falls on the weekday written beside it, if one is; else this year's, unless that date is more than
 * two months behind (a future sentence) or ahead (a past one) of the message, when it is next (last) year's.
 * An explicit year is taken as written.
 */
function explicitDate(
  ref: CalendarDay,
  month: number,
  day: number,
  year: number | undefined,
  weekday: number | undefined,
  direction: Direction,
) {
  if (year !== undefined) {
    const d = calendarDay(year, month, day);
    return d && { ...dayResult(d, ref), written: true };
  }
  const candidates = [ref.year - 1, ref.year, ref.year + 1]
    .map((y) => calendarDay(y, month, day))
    .filter((d): d is CalendarDay => d !== undefined);
  if (weekday !== undefined) {
    const onWeekday = candidates.filter((d) => weekdayOf(d) === weekday);
    if (onWeekday.length === 1) return dayResult(onWeekday[0]!, ref);
  }
  const thisYear = calendarDay(ref.year, month, day);
  if (!thisYear) return candidates.length ? dayResult(candidates[0]!, ref) : undefined;
  const ahead = dayNumber(thisYear) - dayNumber(ref);
  const shifted =
    direction === 'future' && ahead < -SAME_YEAR_SLACK_DAYS
      ? calendarDay(ref.year + 1, month, day)
      : direction === 'past' && ahead > SAME_YEAR_SLACK_DAYS
        ? calendarDay(ref.year - 1, month, day)
        : undefined;
  return dayResult(shifted ?? thisYear, ref);
}

/**
 * A day of the month named with its weekday but not its month ("16일 월요일"): the nearest such day in the
 * sentence's direction within a year (the day of a month on a given weekday comes every few months).
 */
function dayOfMonthOnWeekday(ref: CalendarDay, day: number, weekday: number, direction: Direction) {
  const step = direction === 'past' ? -1 : 1;
  for (let k = 0; k <= 12; k++) {
    const month = ref.month + step * k;
    const d = calendarDay(ref.year + Math.floor((month - 1) / 12), ((((month - 1) % 12) + 12) % 12) + 1, day);
    if (!d || weekdayOf(d) !== weekday) continue;
    const ahead = dayNumber(d) - dayNumber(ref);
    if (direction === 'past' ? ahead <= 0 : ahead >= 0) return dayResult(d, ref);
  }
  return undefined;
}

/** How far a date without its year may lie on the "wrong" side of the message and still be this year's. */
const SAME_YEAR_SLACK_DAYS = 60;

/**
 * Is the month word of `m` (group `group`) the verb "may" ("I may 15 times…")? A lower-case "may" is the
 * month only after a weekday, a preposition of time ("on may 15", "by may 3rd") or with an ordinal.
 */
function isModalMay(m: RegExpExecArray, group: number): boolean {
  const word = m[group]!;
  if (word !== 'may') return false;
  if (/^(?:st|nd|rd|th)\b/i.test(m.input.slice(m.index + m[0].length - 2))) return false;
  const before = m.input.slice(Math.max(0, m.index - 12), m.index);
  return !/\b(?:on|by|until|till|til|before|after|from|since|through|to|of|in|early|mid|late|end|due)\s+$/i.test(before);
}

const EN_MONTHS: Record<string, number> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};
const MON =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';

const WD = '(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs)?|fri|sat|sun)';
const NUM = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a couple|couple of)';

/** English rules, most specific first. Each regex is global and case-insensitive. */
const EN_RULES: Rule[] = [
  {
    // "friday may 15", "Fri, May 15th, 2026", "May 15 (Friday)": the written date, not the nearest Friday.
    words: W.MONTH_NAME,
    re: new RegExp(
      `\\b(?:${WD},?\\s+(?:the\\s+)?)?${MON}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:])\\b(?:,?\\s+(\\d{4})\\b)?(?:,?\\s+\\(?${WD}\\b\\)?)?`,
      'gi',
    ),
    resolve: (m, ref, direction) => {
      const weekday = m[1] ?? m[5];
      if (weekday === undefined && m[4] === undefined && isModalMay(m, 2)) return undefined;
      return explicitDate(
        ref,
        EN_MONTHS[m[2]!.toLowerCase()]!,
        Number(m[3]),
        m[4] === undefined ? undefined : Number(m[4]),
        weekday === undefined ? undefined : EN_WEEKDAYS[weekday.toLowerCase()],
        direction,
      );
    },
  },
  {
    // "Friday 15 May", "the 15th of May 2026".
    words: W.MONTH_NAME,
    re: new RegExp(`\\b(?:${WD},?\\s+)?(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MON}\\b\\.?(?:,?\\s+(\\d{4})\\b)?`, 'gi'),
    resolve: (m, ref, direction) =>
      explicitDate(
        ref,
        EN_MONTHS[m[3]!.toLowerCase()]!,
        Number(m[2]),
        m[4] === undefined ? undefined : Number(m[4]),
        m[1] === undefined ? undefined : EN_WEEKDAYS[m[1].toLowerCase()],
        direction,
      ),
  },
  { words: W.TOMORROW, re: /\bthe day after tomorrow\b/gi, resolve: (_m, ref) => dayResult(addDays(ref, 2), ref) },
  { words: W.YESTERDAY, re: /\bthe day before yesterday\b/gi, resolve: (_m, ref) => dayResult(addDays(ref, -2), ref) },
  { words: W.TOMORROW, re: /\b(tomorrow|tmrw|tmr)\b/gi, resolve: (_m, ref) => dayResult(addDays(ref, 1), ref) },
  { words: W.YESTERDAY | W.NIGHT, re: /\b(yesterday|last night)\b/gi, resolve: (_m, ref) => dayResult(addDays(ref, -1), ref) },
  {
    words: W.TODAY | W.DAYTIME,
    re: /\b(today|tonight|this morning|this afternoon|this evening)\b/gi,
    resolve: (_m, ref) => dayResult(ref, ref),
  },
  {
    words: W.WEEKDAY,
    re: new RegExp(`\\b(next|this coming|coming|this|last|this past|past)\\s+${WD}\\b`, 'gi'),
    resolve: (m, ref) => {
      const which = m[1]!.toLowerCase();
      const wd = EN_WEEKDAYS[m[2]!.toLowerCase()]!;
      if (which === 'next') return dayResult(weekdayInWeek(ref, wd, 1), ref);
      if (which === 'last' || which === 'this past' || which === 'past') return dayResult(nearestWeekday(ref, wd, 'past'), ref);
      return dayResult(nearestWeekday(ref, wd, 'future'), ref);
    },
  },
  {
    words: W.WEEKDAY,
    re: new RegExp(`\\b(on|by|until|till|before|due|from|since|this)\\s+${WD}\\b`, 'gi'),
    resolve: (m, ref, direction) => {
      const prep = m[1]!.toLowerCase();
      const wd = EN_WEEKDAYS[m[2]!.toLowerCase()]!;
      const dir: Direction =
        prep === 'since' ? 'past' : prep === 'by' || prep === 'until' || prep === 'till' || prep === 'due' ? 'future' : direction;
      return dayResult(nearestWeekday(ref, wd, dir), ref);
    },
  },
  { words: W.WEEK, re: /\b(last|this past|past) weekend\b/gi, resolve: (_m, ref) => dayResult(nearestWeekday(ref, 6, 'past'), ref) },
  {
    words: W.WEEK,
    re: /\b(this|next|coming|this coming) weekend\b/gi,
    resolve: (m, ref) => {
      // Said on a weekend, "next weekend" is the following one; otherwise the coming Saturday.
      const onWeekend = weekdayOf(ref) === 6 || weekdayOf(ref) === 0;
      const sat = m[1]!.toLowerCase() === 'next' && onWeekend ? weekdayInWeek(ref, 6, 1) : nearestWeekday(ref, 6, 'future');
      return dayResult(sat, ref);
    },
  },
  { words: W.WEEK, re: /\b(last|past|previous) week\b/gi, resolve: (_m, ref) => weekResult(mondayOf(addDays(ref, -7)), false) },
  { words: W.WEEK, re: /\b(next|coming|following) week\b/gi, resolve: (_m, ref) => weekResult(mondayOf(addDays(ref, 7)), true) },
  { words: W.WEEK, re: /\bthis week\b/gi, resolve: (_m, ref) => weekResult(mondayOf(ref), true) },
  { words: W.WEEK, re: /\b(?:by |at )?the end of (?:the |this )?week\b/gi, resolve: (_m, ref) => dayResult(weekdayInWeek(ref, 5, 0), ref) },
  {
    words: W.MONTH,
    re: /\b(?:by |at )?the end of (?:the |this )?month\b/gi,
    resolve: (_m, ref) => dayResult(addDays(fromUtc(new Date(Date.UTC(ref.year, ref.month, 1))), -1), ref),
  },
  { words: W.MONTH, re: /\b(last|past|previous) month\b/gi, resolve: (_m, ref) => monthResult(ref, -1) },
  { words: W.MONTH, re: /\b(next|coming) month\b/gi, resolve: (_m, ref) => monthResult(ref, 1) },
  { words: W.MONTH, re: /\bthis month\b/gi, resolve: (_m, ref) => monthResult(ref, 0) },
  { words: W.YEAR, re: /\blast year\b/gi, resolve: (_m, ref) => yearResult(ref, -1) },
  { words: W.YEAR, re: /\bnext year\b/gi, resolve: (_m, ref) => yearResult(ref, 1) },
  { words: W.YEAR, re: /\bthis year\b/gi, resolve: (_m, ref) => yearResult(ref, 0) },
  {
    words: W.DAY | W.WEEK | W.MONTH | W.YEAR,
    re: new RegExp(`\\b${NUM}\\s+(days?|weeks?|months?|years?)\\s+ago\\b`, 'gi'),
    resolve: (m, ref) => {
      const n = count(m[1]!.replace(/ of$/i, ''));
      return n === undefined ? undefined : unitShift(ref, n, m[2]!, -1);
    },
  },
  {
    words: W.DAY | W.WEEK | W.MONTH | W.YEAR,
    re: new RegExp(`\\bin\\s+${NUM}\\s+(days?|weeks?|months?|years?)\\b`, 'gi'),
    resolve: (m, ref) => {
      const n = count(m[1]!.replace(/ of$/i, ''));
      return n === undefined ? undefined : unitShift(ref, n, m[2]!, 1);
    },
  },
];

/**
 * The end of a Korean word: no more Hangul, or only particles ("후에", "전에는", "뒤부터"). A syllable that is
 * no particle makes the word another one: 후쿠오카, 전세, 뒤뜰.
 */
const KOREAN_WORD_END = '(?=(?:에서|에는|에도|에야|부터|까지|쯤|에|엔|로|의|은|는|이|가|도|만|인|이면|면)*(?![\\uAC00-\\uD7A3]))';

/** Korean rules. Korean writes "지난주"/"지난 주" both ways, so spaces are optional. */
const KO_RULES: Rule[] = [
  {
    // "16일 월요일", "15일(일)" after a date of its month: the next 16th that is a Monday, not this week's Monday.
    re: /(?<![\d월]\s?)(\d{1,2})일(?:\s?\(([월화수목금토일])(?:요일)?\)|\s([월화수목금토일])요일)/g,
    resolve: (m, ref, direction) => dayOfMonthOnWeekday(ref, Number(m[1]), KO_WEEKDAYS[(m[2] ?? m[3])!]!, direction),
  },
  {
    // "11월 13일 금요일", "11월 13일(금)", "2026년 11월 13일": the written date, not this week's Friday.
    re: /(?:(\d{4})년\s?)?(\d{1,2})월\s?(\d{1,2})일(?:\s?\(([월화수목금토일])(?:요일)?\)|\s([월화수목금토일])요일)?/g,
    resolve: (m, ref, direction) => {
      const weekday = m[4] ?? m[5];
      return explicitDate(
        ref,
        Number(m[2]),
        Number(m[3]),
        m[1] === undefined ? undefined : Number(m[1]),
        weekday === undefined ? undefined : KO_WEEKDAYS[weekday],
        direction,
      );
    },
  },
  { re: /(?:그저께|그제)/g, resolve: (_m, ref) => dayResult(addDays(ref, -2), ref) },
  { re: /어제|어젯밤/g, resolve: (_m, ref) => dayResult(addDays(ref, -1), ref) },
  { re: /오늘|오늘밤|오늘 밤/g, resolve: (_m, ref) => dayResult(ref, ref) },
  { re: /내일모레|모레/g, resolve: (_m, ref) => dayResult(addDays(ref, 2), ref) },
  { re: /글피/g, resolve: (_m, ref) => dayResult(addDays(ref, 3), ref) },
  { re: /내일/g, resolve: (_m, ref) => dayResult(addDays(ref, 1), ref) },
  {
    re: /(다음|담|다다음|이번|지난|저번)\s?주\s?([월화수목금토일])요일/g,
    resolve: (m, ref) => {
      const which = m[1]!;
      const weeks = which === '다다음' ? 2 : which === '다음' || which === '담' ? 1 : which === '이번' ? 0 : -1;
      return dayResult(weekdayInWeek(ref, KO_WEEKDAYS[m[2]!]!, weeks), ref);
    },
  },
  {
    re: /([월화수목금토일])요일/g,
    resolve: (m, ref, direction) => dayResult(nearestWeekday(ref, KO_WEEKDAYS[m[1]!]!, direction), ref),
  },
  { re: /(지난|저번)\s?주말/g, resolve: (_m, ref) => dayResult(nearestWeekday(ref, 6, 'past'), ref) },
  { re: /(이번|다음)\s?주말/g, resolve: (_m, ref) => dayResult(nearestWeekday(ref, 6, 'future'), ref) },
  { re: /(지난|저번)\s?주(?![말년])/g, resolve: (_m, ref) => weekResult(mondayOf(addDays(ref, -7)), false) },
  { re: /(다음|담)\s?주(?![말년])/g, resolve: (_m, ref) => weekResult(mondayOf(addDays(ref, 7)), true) },
  { re: /이번\s?주(?![말년])/g, resolve: (_m, ref) => weekResult(mondayOf(ref), true) },
  { re: /(지난|저번)\s?달/g, resolve: (_m, ref) => monthResult(ref, -1) },
  { re: /다음\s?달/g, resolve: (_m, ref) => monthResult(ref, 1) },
  { re: /이번\s?달/g, resolve: (_m, ref) => monthResult(ref, 0) },
  { re: /재작년/g, resolve: (_m, ref) => yearResult(ref, -2) },
  { re: /작년|지난해/g, resolve: (_m, ref) => yearResult(ref, -1) },
  { re: /내년/g, resolve: (_m, ref) => yearResult(ref, 1) },
  { re: /올해|금년/g, resolve: (_m, ref) => yearResult(ref, 0) },
  {
    // "3일 후" (in three days), "3일 후에", "2년 전에는" — but not the 후 of 후쿠오카 or the 전 of 전세, nor the length of a stay ("2박 3일").
    re: new RegExp(`(?<!\\d박\\s?)(?<!\\d)(\\d{1,3})\\s?(일|주|달|개월|년)\\s?(전|후|뒤)${KOREAN_WORD_END}`, 'g'),
    resolve: (m, ref) => unitShift(ref, Number(m[1]), m[2]!, m[3] === '전' ? -1 : 1),
  },
];

const KO_AND_EN_RULES = [...KO_RULES, ...EN_RULES];
const HANGUL_SYLLABLE = /[\uAC00-\uD7A3]/;

const EN_PAST = /\b(went|was|were|did|had|got|made|saw|took|came|met|visited|attended|ago|yesterday|last|used to|\w{3,}ed)\b/i;
// A past verb of intent points ahead: "We decided to meet on Thursday" (said on a Wednesday) is tomorrow.
const EN_FUTURE = pattern(
  [
    String.raw`\b(`,
    oneOf([
      ...['will', "'ll", 'going to', 'gonna', 'plan(?:ning)? to', 'want to', 'have to', 'need to', 'must', 'should', 'shall'],
      ...['by', 'until', 'due', 'deadline', 'next', 'upcoming', 'coming', "can't wait", 'looking forward'],
      pattern([
        anyOf(
          ...['decided', 'agreed', 'planned', 'promised', 'arranged', 'scheduled', 'booked', 'offered', 'intended', 'hoped'],
          ...['expected', 'set up', String.raw`asked \w+`, String.raw`told \w+`],
        ),
        ' to',
      ]),
    ]),
    String.raw`)\b`,
  ],
  'i',
);
const KO_PAST = /(었|았|였|했|갔|왔|봤|샀|됐)(어|다|습니다|어요|지|는데|고)|지난|저번|어제/;
// "만나기로 했어요" (decided to meet) points ahead like "만날 거예요".
const KO_FUTURE = /(까지|예정|할 거|할게|하려|계획|다음|마감|해야|ㄹ 거|을 거|겠|기로)/;

/** Which way a bare weekday in this sentence points. */
export function sentenceDirection(sentence: string, korean: boolean): Direction {
  if (korean) return KO_PAST.test(sentence) && !KO_FUTURE.test(sentence) ? 'past' : 'future';
  return EN_PAST.test(sentence) && !EN_FUTURE.test(sentence) ? 'past' : 'future';
}

/** The anchors of a sentence without any (most sentences). */
const NO_ANCHORS: readonly DateAnchor[] = [];

/**
 * Find relative date expressions in `sentence` and resolve them against `ref`
 * (the message's local day). Overlapping matches keep the first, most
 * specific rule. Anchors are returned in text order.
 */
export function findDateAnchors(sentence: string, ref: CalendarDay): readonly DateAnchor[] {
  const hasHangul = HANGUL_SYLLABLE.test(sentence);
  // Most sentences name no date at all: one scan instead of every rule, and only the rules whose words occur.
  const words = dateWordsIn(sentence);
  if (!hasHangul && words === 0) return NO_ANCHORS;
  const anchors: (DateAnchor & { start: number })[] = [];
  const rules = hasHangul ? KO_AND_EN_RULES : EN_RULES;
  // Only bare weekdays ("on Friday", "금요일") and dates without their year ("May 15", "11월 13일") depend on the tense of the sentence.
  const direction =
    (hasHangul && /요일|\d\s?월/.test(sentence)) || (words & (W.WEEKDAY | W.MONTH_NAME)) !== 0
      ? sentenceDirection(sentence, hasHangul)
      : 'future';
  // (Indexed loops: for-of inlines the iterator protocol into the compiled function.)
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k]!;
    if (rule.words !== undefined && (rule.words & words) === 0) continue;
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(sentence); m; m = rule.re.exec(sentence)) {
      const start = m.index;
      const end = start + m[0].length;
      if (anchors.some((a) => start < a.end && end > a.start)) continue;
      const r = rule.resolve(m, ref, direction);
      if (!r) continue;
      anchors.push({
        expression: m[0],
        resolved: r.resolved,
        day: r.day,
        future: r.future,
        end,
        start,
        ...(r.written ? { written: true } : {}),
      });
    }
  }
  if (anchors.length === 0) return NO_ANCHORS;
  anchors.sort((a, b) => a.start - b.start);
  // Pushed, not `anchors.map(…)`: the array map of map()'s result depends on whether it was inlined.
  const found: DateAnchor[] = [];
  for (let i = 0; i < anchors.length; i++) {
    const a = anchors[i]!;
    found.push({
      expression: a.expression,
      resolved: hasHangul ? koreanLabel(a.resolved) : a.resolved,
      day: a.day,
      future: a.future,
      end: a.end,
      ...(a.written ? { written: true } : {}),
    });
  }
  return found;
}

/** "week of 2026-03-30" → "2026-03-30 주", "May 2026" → "2026년 5월", "2025" → "2025년". */
function koreanLabel(resolved: string): string {
  const week = /^week of (\S+)$/.exec(resolved);
  if (week) return `${week[1]} 주`;
  const month = /^(\w+) (\d{4})$/.exec(resolved);
  if (month) return `${month[2]}년 ${MONTH_NAMES.indexOf(month[1] as (typeof MONTH_NAMES)[number]) + 1}월`;
  if (/^\d{4}$/.test(resolved)) return `${resolved}년`;
  return resolved;
}

/**
 * Append the resolved date after each relative expression, keeping the
 * original wording: "demo on Friday" → "demo on Friday (2026-04-17)".
 * An expression already followed by a parenthesised date is left alone.
 */
export function annotateDates(sentence: string, anchors: readonly DateAnchor[]): string {
  if (anchors.length === 0) return sentence;
  let out = '';
  let pos = 0;
  for (let i = 0; i < anchors.length; i++) {
    const a = anchors[i]!;
    out += sentence.slice(pos, a.end);
    const after = sentence.slice(a.end);
    if (!a.written && !/^\s*\(\s*\d{4}/.test(after)) out += ` (${a.resolved})`;
    pos = a.end;
  }
  return out + sentence.slice(pos);
}
