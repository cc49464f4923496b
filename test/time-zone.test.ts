import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localDateTime, resolveTimeZone } from '../lib/time-zone.js';

test('cached zone offsets agree with Intl for every zone shape, across DST transitions', () => {
  const zones = ['UTC', 'Asia/Seoul', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham'];
  let x = 12345;
  const rand = () => ((x = (x * 48271) % 2147483647) / 2147483647);
  const start = Date.parse('2025-01-01T00:00:00Z');
  const span = 2 * 365 * 86_400_000;
  for (const zone of zones) {
    const intl = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
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
  assert.throws(() => resolveTimeZone('Mars/Olympus'), (e: Error & { keyPath?: string }) => e.keyPath === 'timezone' && /Unknown time zone/.test(e.message));
  assert.equal(resolveTimeZone('Asia/Seoul'), 'Asia/Seoul');
});
