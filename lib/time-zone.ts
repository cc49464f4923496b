/** Time-zone helpers: the configured zone, validated; local date/time strings. */
import { ConfigError } from './errors.js';

export function resolveTimeZone(configured: string): string {
  const zone = configured || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ConfigError(`Unknown time zone "${zone}".`, { keyPath: 'timezone', hint: 'Use an IANA name such as "Europe/Berlin", "Asia/Seoul" or "UTC".' });
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
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
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
  // UTC has no transitions: Intl gives it offset 0 at every instant it can format
  // (others, NaN included, take the Intl path and throw as before).
  if (timeZone === 'UTC' && Math.abs(ms) < 8.6e15) return 0;
  const bucket = Math.floor(ms / BUCKET);
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const at = bucket * BUCKET;
    const parts: Record<string, string> = {};
    for (const p of formatterFor(timeZone).formatToParts(new Date(at))) parts[p.type] = p.value;
    const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
    offset = asUtc - at;
    if (zone.size > 100_000) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

/** Wall-clock fields of an instant in a zone. */
export function zonedFields(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
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

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** { date: 'YYYY-MM-DD', time: 'HH:MM' } of an instant in a zone. */
export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const f = zonedFields(instant.getTime(), timeZone);
  return { date: `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`, time: `${pad(f.hour)}:${pad(f.minute)}` };
}
