import { defineCommand } from '../cli-context.js';

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

export const command = defineCommand({
  name: 'sources',
  description:
    'List every transcript source found on this machine (OpenClaw files and databases, pi, Claude Code, Codex, generic logs) and whether it is observed',
  homeMustExist: true,
  examples: ['ocm-run sources', 'ocm-run sources --json', 'ocm-run config set sources.claude_code.enabled true'],
  async run(ctx) {
    const { config, env } = await ctx.config();
    const { discoverSources } = await import('../../lib/api/setup.js');
    const reports = await discoverSources({ config, env, statePath: ctx.paths.state });
    if (ctx.json) {
      ctx.out(JSON.stringify({ sources: reports }, null, 2));
      return;
    }
    const found = reports.filter((r) => r.found);
    const lines: string[] = [];
    if (found.length === 0) lines.push('No transcript sources found on this machine.');
    for (const r of found) {
      const c = r.cursor;
      const read =
        c.sessionsObserved === 0
          ? 'not read yet'
          : c.sessionsBehind === 0
            ? 'up to date'
            : `${c.sessionsBehind} session${c.sessionsBehind === 1 ? '' : 's'} behind${c.rowsBehind ? ` (${c.rowsBehind} rows)` : c.bytesRead !== undefined ? ` (${bytes(c.bytesRead)} of ${bytes(r.sizeBytes)} read)` : ''}`;
      const last = r.lastEntryAt ? `${r.lastEntryAt.slice(0, 16).replace('T', ' ')} UTC` : 'no entries';
      lines.push(`${r.enabled ? '●' : '○'} ${r.name} · agent ${r.agents.join(', ') || '-'} · ${r.enabled ? 'observed' : 'not observed'}`);
      lines.push(`    ${r.path}`);
      lines.push(
        `    ${r.sessions} session${r.sessions === 1 ? '' : 's'} · ${bytes(r.sizeBytes)} · last entry ${last} · ${read}${c.messages ? ` · ${c.messages} message${c.messages === 1 ? '' : 's'} observed` : ''}`,
      );
      for (const note of r.notes) lines.push(`    note: ${note}`);
    }
    const missing = reports.filter((r) => !r.found);
    if (missing.length > 0) lines.push('', `Not found: ${missing.map((r) => `${r.name} (${r.path})`).join(', ')}`);
    const off = found.filter((r) => !r.enabled);
    if (off.length > 0) {
      lines.push('', 'To observe one that is off:');
      for (const key of [...new Set(off.map((r) => r.configKey))]) lines.push(`  ocm-run config set ${key} true`);
    }
    ctx.out(lines.join('\n'));
  },
});
