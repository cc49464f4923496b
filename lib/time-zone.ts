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

export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, fmt);
  }
  const parts = fmt.formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}
