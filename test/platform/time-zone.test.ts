import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedZoneOffsetMs, localDateTime, nextLocalDateChange, resolveTimeZone } from '../../lib/platform/time-zone.js';

test('cached zone offsets agree with Intl for every zone shape, across DST transitions', () => {
  const zones = [
    'UTC',
    'Asia/Seoul',
    'America/New_York',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'America/St_Johns',
    'Pacific/Chatham',
  ];
  let x = 12345;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const start = Date.parse('2025-01-01T00:00:00Z');
  const span = 2 * 365 * 86_400_000;
  for (const zone of zones) {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (let i = 0; i < 3000; i++) {
      const ms = start + Math.floor(rand() * span);
      const p = Object.fromEntries(intl.formatToParts(new Date(ms)).map((q) => [q.type, q.value]));
      const expected = { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
      assert.deepEqual(localDateTime(new Date(ms), zone), expected, `${zone} ${new Date(ms).toISOString()}`);
    }
  }
  // Exactly at a transition: New York springs forward at 2026-03-08 07:00 UTC.
  assert.deepEqual(localDateTime(new Date('2026-03-08T06:59:00Z'), 'America/New_York'), { date: '2026-03-08', time: '01:59' });
  assert.deepEqual(localDateTime(new Date('2026-03-08T07:00:00Z'), 'America/New_York'), { date: '2026-03-08', time: '03:00' });
});

test('an unknown time zone is a configuration error naming the key', () => {
  assert.throws(
    () => resolveTimeZone('Mars/Olympus'),
    (e: Error & { keyPath?: string }) => e.keyPath === 'timezone' && /Unknown time zone/.test(e.message),
  );
  assert.equal(resolveTimeZone('Asia/Seoul'), 'Asia/Seoul');
});

test('fixed-offset zones are known without Intl and agree with it; names Intl rejects stay unknown', () => {
  const names = ['UTC', 'utc', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'etc/gmt+5'];
  for (let h = 1; h <= 12; h++) names.push(`Etc/GMT+${h}`);
  for (let h = 1; h <= 14; h++) names.push(`Etc/GMT-${h}`);
  const at = [Date.parse('2026-01-15T12:34:00Z'), Date.parse('2026-07-01T23:59:00Z'), Date.parse('2026-03-29T01:00:00Z')];
  for (const zone of names) {
    assert.notEqual(fixedZoneOffsetMs(zone), undefined, zone);
    assert.equal(resolveTimeZone(zone), zone);
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const ms of at) {
      const p = Object.fromEntries(intl.formatToParts(new Date(ms)).map((q) => [q.type, q.value]));
      assert.deepEqual(
        localDateTime(new Date(ms), zone),
        { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` },
        `${zone} ${new Date(ms).toISOString()}`,
      );
    }
  }
  for (const zone of ['Etc/GMT+13', 'Etc/GMT-15', 'Etc/GMT+05', ' UTC', 'Asia/Seoul', 'UTC+9'])
    assert.equal(fixedZoneOffsetMs(zone), undefined, zone);
  for (const zone of ['Etc/GMT+13', 'Etc/GMT-15', 'Etc/GMT+05']) assert.throws(() => resolveTimeZone(zone), /Unknown time zone/);
});

test('nextLocalDateChange: the first instant of another local date, across midnights and DST shifts', () => {
  const zones = [
    'UTC',
    'Etc/GMT-14',
    'Asia/Seoul',
    'America/New_York',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Pacific/Chatham',
    'America/Havana',
  ];
  let x = 777;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const start = Date.parse('2025-01-01T00:00:00Z');
  const span = 2 * 365 * 86_400_000;
  const date = (ms: number, zone: string) => localDateTime(new Date(ms), zone).date;
  for (const zone of zones) {
    for (let i = 0; i < 120; i++) {
      const from = start + Math.floor(rand() * span);
      const next = nextLocalDateChange(from, zone);
      const day = date(from, zone);
      assert.ok(next > from && next - from <= 26 * 3_600_000, `${zone} ${new Date(from).toISOString()} → ${new Date(next).toISOString()}`);
      assert.notEqual(
        date(next, zone),
        day,
        `${zone}: ${new Date(next).toISOString()} is another date than ${new Date(from).toISOString()}`,
      );
      assert.equal(date(next - 1, zone), day);
      for (let k = 0; k < 4; k++) assert.equal(date(from + Math.floor(rand() * (next - from)), zone), day);
    }
  }
  // Havana springs forward at local midnight (2026-03-08 00:00 → 01:00): the date changes at 05:00 UTC.
  assert.equal(
    new Date(nextLocalDateChange(Date.parse('2026-03-07T20:00:00Z'), 'America/Havana')).toISOString(),
    '2026-03-08T05:00:00.000Z',
  );
  assert.equal(new Date(nextLocalDateChange(Date.parse('2026-03-07T20:00:00Z'), 'UTC')).toISOString(), '2026-03-08T00:00:00.000Z');
});
