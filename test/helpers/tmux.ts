/**
 * Drive an interactive command in a real pseudo-terminal through tmux:
 * start it in a detached session, send keys, wait for text on the screen.
 */
import { execa } from 'execa';

export async function hasTmux(): Promise<boolean> {
  const r = await execa('sh', ['-c', 'command -v tmux'], { reject: false });
  return r.exitCode === 0;
}

export class TmuxSession {
  private constructor(readonly name: string) {}

  /** Start `command` (a shell command line); the pane stays after it exits and prints EXIT=<code>. */
  static async start(name: string, command: string, env: Record<string, string>): Promise<TmuxSession> {
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    await execa('tmux', ['kill-session', '-t', name], { reject: false });
    await execa('tmux', ['new-session', '-d', '-s', name, '-x', '160', '-y', '50', `env ${exports} ${command}; echo EXIT=$?; sleep 600`]);
    return new TmuxSession(name);
  }

  /** Send tmux key names (Enter, Up, C-c…) or literal text with { literal: true }. */
  async keys(...keys: string[]): Promise<void> {
    await execa('tmux', ['send-keys', '-t', this.name, ...keys]);
  }

  async type(text: string): Promise<void> {
    await execa('tmux', ['send-keys', '-t', this.name, '-l', text]);
  }

  /** Everything the terminal showed (history included), blank lines dropped. */
  async screen(): Promise<string> {
    const r = await execa('tmux', ['capture-pane', '-p', '-J', '-t', this.name, '-S', '-2000'], { reject: false });
    return String(r.stdout)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .join('\n');
  }

  /** Wait until `pattern` has matched at least `count` times on the screen. */
  async waitFor(pattern: RegExp, options: { count?: number; timeoutMs?: number } = {}): Promise<string> {
    const count = options.count ?? 1;
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    let last = '';
    while (Date.now() < deadline) {
      last = await this.screen();
      if ((last.match(global)?.length ?? 0) >= count) return last;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`timed out waiting for ${pattern} (×${count}); the screen shows:\n${last.split('\n').slice(-25).join('\n')}`);
  }

  async kill(): Promise<void> {
    await execa('tmux', ['kill-session', '-t', this.name], { reject: false });
  }
}
