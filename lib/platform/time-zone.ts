/** Time-zone helpers: the configured zone, validated; local date/time strings. */
import { ConfigError } from '../core/errors.js';

const HOUR = 3_600_000;

/**
 * The UTC offset (ms) of a zone whose offset never changes — UTC and its
 * aliases, `Etc/GMT±N` — or undefined for any other zone. Known without Intl:
 * a process's first Intl.DateTimeFormat loads ICU's locale data (≈ 30 ms), too
 * much for a cron tick that has nothing to do. Only names Intl accepts
 * (case-insensitive, as Intl): `Etc/GMT+5` is UTC−5; `Etc/GMT+13`, `Etc/GMT+05`
 * are not zones.
 */
export function fixedZoneOffsetMs(zone: string): number | undefined {
  const name = zone.toLowerCase();
  if (name === 'utc' || name === 'etc/utc' || name === 'gmt' || name === 'etc/gmt' || name === 'etc/gmt0') return 0;
  const m = /^etc\/gmt([+-])(0|[1-9]\d?)$/.exec(name);
  if (!m) return undefined;
  const hours = Number(m[2]);
  if (hours === 0) return 0;
  if (m[1] === '+' ? hours > 12 : hours > 14) return undefined;
  return (m[1] === '+' ? -hours : hours) * HOUR;
}

export function resolveTimeZone(configured: string): string {
  const zone = configured || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (fixedZoneOffsetMs(zone) !== undefined) return zone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ConfigError(`Unknown time zone "${zone}".`, {
      keyPath: 'timezone',
      hint: 'Use an IANA name such as "Europe/Berlin", "Asia/Seoul" or "UTC".',
    });
  }
  return zone;
}

/** { date: 'YYYY-MM-DD', time: 'HH:MM' } of an instant in a zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Per zone: UTC quarter-hour number → offset (number keys: no key string built per lookup). */
const offsets = new Map<string, Map<number, number>>();
const BUCKET = 15 * 60_000;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

/**
 * The zone's UTC offset (ms) at an instant. Intl's formatToParts costs tens of
 * microseconds, so the offset is computed once per zone and UTC quarter-hour and
 * cached (zones change offset only on quarter-hour boundaries: Lord Howe shifts at :30).
 */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  // UTC and fixed offsets have no transitions: Intl gives them one offset at every instant
  // it can format (others, NaN included, take the Intl path and throw as before).
  if (Math.abs(ms) < 8.6e15) {
    const fixed = timeZone === 'UTC' ? 0 : fixedZoneOffsetMs(timeZone);
    if (fixed !== undefined) return fixed;
  }
  const bucket = Math.floor(ms / BUCKET);
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const at = bucket * BUCKET;
    const parts: Record<string, string> = {};
    for (const p of formatterFor(timeZone).formatToParts(new Date(at))) parts[p.type] = p.value;
    const asUtc = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour) % 24,
      Number(parts.minute),
      Number(parts.second),
    );
    offset = asUtc - at;
    if (zone.size > 100_000) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

/** Wall-clock fields of an instant in a zone. */
export function zonedFields(
  ms: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    weekday: local.getUTCDay(),
  };
}

const DAY = 86_400_000;

/**
 * The first instant at or after `fromMs` whose local calendar date (in the
 * zone, as localDateTime gives it) differs from that of `fromMs`: the next
 * local midnight, or the edge of a DST shift across midnight. Every instant in
 * [fromMs, result) has the same local date as `fromMs`. Walks the zone's
 * offset quarter-hour by quarter-hour, as zoneOffsetMs computes it.
 */
export function nextLocalDateChange(fromMs: number, timeZone: string): number {
  const dayStart = Math.floor((fromMs + zoneOffsetMs(fromMs, timeZone)) / DAY) * DAY;
  let t = fromMs;
  // A date lasts at most a day plus the largest shift; 5 days of quarter-hours is plenty.
  for (let i = 0; i < 480; i++) {
    const offset = zoneOffsetMs(t, timeZone);
    const bucketEnd = (Math.floor(t / BUCKET) + 1) * BUCKET;
    // In this quarter-hour the local time is t + offset: the date is the same while dayStart ≤ t + offset < dayStart + DAY.
    if (t + offset < dayStart) return t;
    const leaves = dayStart + DAY - offset;
    if (leaves < bucketEnd) return Math.max(t, leaves);
    t = bucketEnd;
  }
  return t;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** { date: 'YYYY-MM-DD', time: 'HH:MM' } of an instant in a zone. */
export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const f = zonedFields(instant.getTime(), timeZone);
  return { date: `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`, time: `${pad(f.hour)}:${pad(f.minute)}` };
}

const OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** `+09:00` / `-08:00` for an offset in ms. */
export function formatUtcOffset(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The instant (epoch ms) of a local date (YYYY-MM-DD) and time (HH:MM, '' for midnight) in a zone: an
 * IANA name or a fixed UTC offset (`+09:00`). NaN for a date that is not one. In a zone's repeated
 * hour (clocks set back) the earlier instant; in a skipped hour, the instant an hour on.
 */
export function localInstantMs(date: string, time: string, zone: string): number {
  const asUtc = Date.parse(`${date}T${time || '00:00'}:00Z`);
  if (Number.isNaN(asUtc)) return NaN;
  const fixed = OFFSET.exec(zone);
  if (fixed) return asUtc - (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3])) * 60_000;
  // The offset at the guess, then at the instant it gives (one correction covers a transition between).
  const first = asUtc - zoneOffsetMs(asUtc, zone);
  const second = asUtc - zoneOffsetMs(first, zone);
  return Math.min(first, second);
}

/** The UTC offset (`+09:00`) a zone (IANA name or offset) has at a local date and time. */
export function utcOffsetAt(date: string, time: string, zone: string): string {
  if (OFFSET.test(zone)) return zone;
  const at = localInstantMs(date, time, zone);
  return formatUtcOffset(zoneOffsetMs(at, zone));
}
