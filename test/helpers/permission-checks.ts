/**
 * Real permission checks for tests that need the OS to refuse an access. An ordinary user's process is
 * refused already. Root is not (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): it runs the command with those two
 * capabilities dropped (setpriv), staying root, so a file or folder it owns is refused by its mode as an
 * ordinary owner's would be — and the checkout stays reachable wherever it lives (a clone under a 0700
 * folder that another user, such as `nobody`, could not enter).
 */
import { execa, type Options } from 'execa';

const isRoot = process.getuid?.() === 0;
const DROP = '-dac_override,-dac_read_search';

/** Whether this machine can run a command whose accesses its permissions decide; the reason when it cannot. */
export async function permissionChecks(): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!isRoot) return { ok: true };
  const probe = await execa('setpriv', ['--bounding-set', DROP, '--inh-caps', DROP, '--', 'true'], {
    reject: false,
    timeout: 10_000,
  }).catch(() => undefined);
  if (probe?.exitCode === 0) return { ok: true };
  return {
    ok: false,
    reason:
      'running as root, and setpriv cannot drop the permission-bypass capabilities here (util-linux setpriv missing, or not allowed): the OS would not refuse anything',
  };
}

/** Run a command so that the OS's permission checks apply to it (see the header); as execa does, never rejecting. */
export function withPermissionChecks(command: string, args: string[], options: Options = {}) {
  if (!isRoot) return execa(command, args, { reject: false, ...options });
  return execa('setpriv', ['--bounding-set', DROP, '--inh-caps', DROP, '--', command, ...args], { reject: false, ...options });
}
