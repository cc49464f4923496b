/** A one-line progress display on a terminal's stderr; silent otherwise. */
export interface Progress {
  update(text: string): void;
  done(): void;
}

export function createProgress(enabled: boolean): Progress {
  let last = 0;
  let shown = false;
  return {
    update(text) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 80) return;
      last = now;
      shown = true;
      const width = process.stderr.columns ? process.stderr.columns - 1 : 100;
      process.stderr.write(`\r\x1b[2K${text.slice(0, width)}`);
    },
    done() {
      if (enabled && shown) process.stderr.write('\r\x1b[2K');
    },
  };
}
