/**
 * Day-file names: `YYYY-MM-DD.md` for a day that exists on the calendar. A
 * hand-made `2026-13-45.md` is not a day file: listing skips it (and says
 * so, see misnamedDayFiles) instead of every job failing on its date.
 */
const DAY_FILE = /^(\d{4})-(\d{2})-(\d{2})\.md$/;

/** `YYYY-MM-DD` names a real calendar day. */
export function isRealDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** A day file's name: `YYYY-MM-DD.md` of a real day. */
export function isDayFileName(name: string): boolean {
  return DAY_FILE.test(name) && isRealDate(name.slice(0, 10));
}

/** Shaped like a day file but not a real day (`2026-13-45.md`): skipped, to be reported. */
export function isMisnamedDayFile(name: string): boolean {
  return DAY_FILE.test(name) && !isRealDate(name.slice(0, 10));
}
