/**
 * A one-line progress display on a terminal's stderr; silent otherwise. `update` takes the line as a
 * function, called only when the line is drawn (on a terminal, at most every 80 ms): a job that reports
 * every file or chunk pays nothing for its text off a terminal (formatting numbers with
 * toLocaleString costs ~0.07 ms a call, 80 ms of an incremental `index` of 180 files).
 */
export interface Progress {
  update(line: () => string): void;
  done(): void;
}

export function createProgress(enabled: boolean): Progress {
  let last = 0;
  let shown = false;
  return {
    update(line) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 80) return;
      last = now;
      shown = true;
      const width = process.stderr.columns ? process.stderr.columns - 1 : 100;
      process.stderr.write(`\r\x1b[2K${line().slice(0, width)}`);
    },
    done() {
      if (enabled && shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

/** "3 min" / "40 s": a duration for an ETA, rounded the way people say it. */
export function formatDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The time left of a job `fraction` (0–1) done that started at `startedMs`: ` · ~3 min left`, or ''
 * while too little is done to tell (under 2 % or 2 s).
 */
export function etaText(fraction: number, startedMs: number, nowMs: number): string {
  const elapsed = nowMs - startedMs;
  if (!(fraction > 0.02) || fraction >= 1 || elapsed < 2000) return '';
  return ` · ~${formatDuration((elapsed * (1 - fraction)) / fraction)} left`;
}
