import { defineCommand, type CommandContext } from '../cli-context.js';
import type { HomeStatusOptions } from '../../lib/api/status.js';

/** The home, its config and the clock the status is read with. */
async function statusOptions(ctx: CommandContext): Promise<HomeStatusOptions> {
  const { config } = await ctx.config();
  return { paths: ctx.paths, config, env: ctx.env, now: ctx.now() };
}

export const command = defineCommand({
  name: 'status',
  description: 'Sources seen, observations per agent and day, last runs and errors, observer in use, token figures',
  homeMustExist: true,
  examples: ['ocm-run status', 'ocm-run status --json'],
  async run(ctx) {
    const api = await import('../../lib/api/status.js');
    const s = await api.homeStatus(await statusOptions(ctx));
    if (ctx.json) {
      ctx.out(JSON.stringify(s, null, 2));
      return;
    }
    const lines: string[] = [];
    lines.push(`OC-Memory · ${s.home}`);
    lines.push(`Observer: ${s.observer.label}`);
    lines.push(`Embeddings: ${s.embeddings.label}${s.embeddings.problem ? `\n  ⚠ ${s.embeddings.problem}` : ''}`);
    const { formatUptime } = api;
    lines.push(
      s.daemon.running
        ? `Watcher: running (PID ${s.daemon.pid}, up ${formatUptime(s.daemon.uptimeSeconds ?? 0)}${s.daemon.mode === 'daemon' ? `, log ${s.daemon.log}` : ', foreground'})`
        : 'Watcher: not running (start with `ocm-run start --daemon`)',
    );
    if (s.schedule) {
      const sc = s.schedule;
      const last = sc.lastRun
        ? `last tick ${sc.lastRun.slice(0, 19).replace('T', ' ')} UTC (${sc.minutesSinceLastRun} min ago)`
        : 'no tick yet';
      lines.push(
        `Schedule: ${sc.installed ? `${sc.platform}, every ${sc.everyMinutes} min${sc.active === false ? ' (not active)' : ''}` : `not installed (\`ocm-run schedule install\`)`} · ${last}${sc.installed && sc.lastRun && !sc.ticking ? ' — late' : ''}`,
      );
    }
    lines.push('');
    lines.push('Sources:');
    if (s.sources.length === 0) lines.push('  none read yet (run `ocm-run observe`)');
    for (const src of s.sources) {
      lines.push(
        `  ${src.kind.padEnd(12)} agent ${src.agent.padEnd(10)} ${String(src.streams).padStart(4)} streams ${String(src.messages).padStart(7)} messages${src.malformed ? ` · ${src.malformed} malformed lines skipped` : ''} · last read ${src.lastRead.slice(0, 19).replace('T', ' ')}`,
      );
    }
    lines.push('');
    // Counted in the hot tier only: say so, and where the older days are, so 0 never reads as "nothing kept".
    const older = s.tiers.days.warm + s.tiers.days.cold;
    lines.push(
      `Observations: ${s.observations.total} in the hot tier (memory/)${older > 0 ? `; ${s.tiers.days.warm} older day file(s) in warm, ${s.tiers.days.cold} in cold (\`ocm-run stats\` counts every tier)` : ''}`,
    );
    for (const [agent, a] of Object.entries(s.observations.byAgent)) {
      const days = Object.entries(a.byDay).sort(([x], [y]) => y.localeCompare(x));
      lines.push(
        `  ${agent}: ${a.total} in ${days.length} days; latest: ${days
          .slice(0, 5)
          .map(([d, n]) => `${d} (${n})`)
          .join(', ')}`,
      );
    }
    lines.push('');
    lines.push('Jobs:');
    for (const [job, rec] of Object.entries(s.jobs)) {
      lines.push(
        `  ${job.padEnd(14)} last run ${rec.lastRun?.slice(0, 19).replace('T', ' ') ?? 'never'}${rec.lastDurationMs !== undefined ? ` (${rec.lastDurationMs} ms)` : ''}${rec.lastSuccess ? '' : ' · never succeeded'}`,
      );
    }
    if (s.lastError) lines.push(`Last error: ${s.lastError.job} at ${s.lastError.at}: ${s.lastError.message}`);
    lines.push('');
    const am =
      Object.entries(s.tokens.activeMemory)
        .map(([a, t]) => `${a} ${t}`)
        .join(', ') || 'not built yet';
    lines.push(
      `Tokens: ${s.tokens.transcriptRead} transcript tokens read (estimate) → active memory ${am} (budget ${s.tokens.activeMemoryBudget})`,
    );
    lines.push(...api.formatLlmStatus(s.llm));
    lines.push('', ...api.formatTierStatus(s.tiers));
    if (s.hooks.skippedForTime > 0 && s.hooks.last) lines.push(api.formatSkippedForTime(s.hooks));
    if (s.held.length > 0) {
      lines.push(
        '',
        `Held for review: ${s.held.length} observation${s.held.length === 1 ? '' : 's'} never injected (the text tries to act on the agent; fix or forget it, or leave it as a record):`,
      );
      for (const h of s.held.slice(0, 20))
        lines.push(
          `  ${h.id} · ${h.date} · ${h.agent} · ${h.category} · ${h.why}: ${h.text.length > 160 ? `${h.text.slice(0, 159)}…` : h.text}`,
        );
      if (s.held.length > 20) lines.push(`  … ${s.held.length - 20} more (status --json lists them all)`);
    }
    ctx.out(lines.join('\n'));
  },
});
