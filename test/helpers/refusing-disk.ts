/**
 * The CLI on a disk that refuses writes, in a private mount namespace
 * (`unshare -m` as root, `-rm` otherwise): a copy of the home on a full 4 MB
 * tmpfs, or the home bind-mounted read-only. For test/platform/full-disk.test.ts and
 * test/config/config-limits.test.ts; undefined where no mount namespace can be made.
 */
import { execa } from 'execa';
import { CLI } from './cli.js';

/** Run the CLI on a copy of `home` placed on a full 4 MB tmpfs, or on `home` bind-mounted read-only. Undefined: no mount namespace here. */
export async function runOnRefusingDisk(
  kind: 'full' | 'read-only',
  home: string,
  mount: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string } | undefined> {
  const script =
    kind === 'full'
      ? 'mount -t tmpfs -o size=4m tmpfs "$2" && cp -a "$1"/. "$2"/ && (dd if=/dev/zero of="$2"/filler bs=4k 2>/dev/null; true) || exit 99; shift 2; exec "$@"'
      : 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" "$2" || exit 99; shift 2; exec "$@"';
  const asRoot = process.getuid?.() === 0;
  const r = await execa(
    'unshare',
    [...(asRoot ? ['-m'] : ['-rm']), 'sh', '-c', script, 'sh', home, mount, process.execPath, CLI, ...args, '--home', mount],
    {
      reject: false,
      timeout: 60_000,
      stdin: 'ignore',
      env: { CI: '1', OCM_HOME: undefined },
      extendEnv: true,
    },
  );
  if (r.exitCode === 99 || (r.failed && r.exitCode === undefined)) return undefined;
  return { code: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}
