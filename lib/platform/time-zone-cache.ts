/**
 * The configured time zone, resolved once and kept in .ocm/time-zone.json, so a cron
 * tick with nothing to do needs no Intl (a process's first
 * Intl.DateTimeFormat costs ≈ 30 ms of ICU start-up; UTC and `Etc/GMT±N` need
 * none anyway, see fixedZoneOffsetMs).
 *
 * The cached answer is keyed by everything resolving depends on: the
 * configured name and the ICU and time-zone data versions of this Node; for
 * the system zone (`timezone: ""`) also the TZ variable or, without it, where
 * /etc/localtime points (ICU reads the zone from there). When the system zone
 * cannot be identified that way (no TZ, /etc/localtime not a link, Windows),
 * nothing is cached and the zone is resolved every time, as before.
 */
import { readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixedZoneOffsetMs, resolveTimeZone } from './time-zone.js';

interface ZoneCacheEntry {
  key: string;
  zone: string;
}

/** What resolving `configured` depends on; undefined when that cannot be told without Intl. */
export function zoneResolutionKey(configured: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let system = '';
  if (!configured) {
    if (env.TZ !== undefined) system = `TZ=${env.TZ}`;
    else {
      try {
        system = `localtime=${readlinkSync('/etc/localtime')}`;
      } catch {
        return undefined;
      }
    }
  }
  return JSON.stringify([configured, system, process.versions.icu ?? '', process.versions.tz ?? '']);
}

/** Where the cache lives: `<home>/.ocm/time-zone.json`. */
export function zoneCacheFile(machineDir: string): string {
  return join(machineDir, 'time-zone.json');
}

/**
 * resolveTimeZone through the cache file: the cached zone when its key still
 * holds; otherwise resolved (throwing the ConfigError of an unknown zone, as
 * resolveTimeZone does) and, when cacheable, written to the cache. A missing
 * or unreadable cache is a miss; a cache that cannot be written is skipped.
 */
export async function resolveTimeZoneCached(cacheFile: string, configured: string): Promise<string> {
  if (configured && fixedZoneOffsetMs(configured) !== undefined) return resolveTimeZone(configured); // no Intl needed
  const key = zoneResolutionKey(configured);
  if (key !== undefined) {
    try {
      const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as Partial<ZoneCacheEntry> | null;
      if (cached?.key === key && typeof cached.zone === 'string') return cached.zone;
    } catch {
      /* no cache yet, or unreadable: a miss */
    }
  }
  const zone = resolveTimeZone(configured);
  if (key !== undefined) {
    try {
      const { writeFileAtomic } = await import('./atomic-file.js');
      await writeFileAtomic(cacheFile, JSON.stringify({ key, zone } satisfies ZoneCacheEntry), { mode: 0o600 });
    } catch {
      /* a cache only */
    }
  }
  return zone;
}
