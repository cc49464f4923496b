/**
 * Agent-life (the `npm run eval` section "agentlife"): months-long conversations of one person with
 * a coding or an assistant agent (../shared/data/agentlife-dev, read there, never copied here),
 * scored through the real CLI by the team's scorer, ../shared/eval/agentlife_run.py.
 *
 * The scorer makes one fresh home per conversation (`setup --yes --provider heuristic --sources
 * none`, the speakers' names configured), turns the conversation into OpenClaw session files (tool
 * calls as real toolCall / toolResult entries), runs `observe --flush` and `index` with the built
 * CLI (dist/scripts/cli.js), and asks every question with `search --json`. This section runs it as
 * it is — so the figures are the scorer's own — and reads its output back: the last line's figures,
 * the per-category table and the per-file lines. The same-run baseline is the scorer's: SQLite
 * FTS5 BM25 over the raw turns (`base_R@10`, `base_R@1kTok`).
 *
 *   npm run eval -- agentlife [--keep]
 *   (AGENTLIFE_DIR / AGENTLIFE_SCORER point elsewhere; python3 must be on PATH)
 */
import { resolve } from 'node:path';
import { execa } from 'execa';

const ROOT = resolve(import.meta.dirname, '..');

export interface AgentLifeCategory {
  category: string;
  questions: number;
  r5: number;
  r10: number;
  r1kTok: number;
  injectRecall: number;
  baseR10: number;
  baseR1kTok: number;
}

export interface AgentLifeReport {
  dataDir: string;
  /** The last line of the scorer, as numbers: R@10, R@1kTok, current_first, … n. */
  figures: Record<string, number>;
  categories: AgentLifeCategory[];
  /**
   * One line per conversation (turns, observation lines, its figures), as the scorer printed it, then
   * what it says is missing from or left in that active memory, and secrets found in clear.
   */
  files: { line: string; notes: string[] }[];
  /** The scorer's summary lines (knowledge updates, active memory, secrets, tokens). */
  summary: string[];
  seconds: number;
}

/** The targets the figures are held to (the observation-token ratio is at most; the rest at least). */
export const AGENTLIFE_TARGETS: Record<string, { target: number; atMost?: boolean }> = {
  current_first: { target: 0.9 },
  active_include: { target: 0.9 },
  active_exclude: { target: 0.95 },
  'obs/transcript': { target: 0.35, atMost: true },
};

/** The figures of the scorer's last line: "R@10=0.684 R@1kTok=0.803 … n=120". */
export function parseFigures(line: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of line.matchAll(/(\S+?)=(-?[\d.]+)/g)) out[m[1]!] = Number(m[2]);
  return out;
}

/** The scorer's output as a report (exported for its test: the parsing is all this section adds). */
export function parseScorerOutput(stdout: string): Omit<AgentLifeReport, 'dataDir' | 'seconds'> {
  const lines = stdout.split('\n');
  const last = [...lines].reverse().find((l) => /^R@10=/.test(l));
  if (!last) throw new Error(`the agent-life scorer printed no figures:\n${stdout.slice(-2000)}`);
  const categories: AgentLifeCategory[] = [];
  for (const l of lines) {
    const m = /^\| ([\w-]+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$/.exec(l);
    if (!m) continue;
    categories.push({
      category: m[1]!,
      questions: Number(m[2]),
      r5: Number(m[3]),
      r10: Number(m[4]),
      r1kTok: Number(m[5]),
      injectRecall: Number(m[6]),
      baseR10: Number(m[7]),
      baseR1kTok: Number(m[8]),
    });
  }
  return {
    figures: parseFigures(last),
    categories,
    files: filesOf(lines),
    summary: lines.filter((l) => /^(?:abstain|knowledge updates|active memory|secrets in clear|observations) /.test(l)),
  };
}

function filesOf(lines: string[]): AgentLifeReport['files'] {
  const files: AgentLifeReport['files'] = [];
  for (const l of lines) {
    if (/^\S+: \d+ turns,/.test(l)) files.push({ line: l, notes: [] });
    else if (files.length && /^ {2}(?:active memory|secrets in clear)/.test(l)) files[files.length - 1]!.notes.push(l.trim());
  }
  return files;
}

export async function runAgentLifeEval(options: {
  dataDir: string;
  scorer: string;
  keep?: boolean;
  log?: (line: string) => void;
}): Promise<AgentLifeReport> {
  const started = Date.now();
  options.log?.(`agent-life: ${options.scorer} over ${options.dataDir} with the built CLI (node dist/scripts/cli.js)`);
  const args = [options.scorer, options.dataDir, '--cmd', 'node dist/scripts/cli.js', ...(options.keep ? ['--keep'] : [])];
  const res = await execa('python3', args, { cwd: ROOT, reject: false, timeout: 1_800_000, maxBuffer: 64 * 1024 * 1024 });
  if (res.exitCode !== 0)
    throw new Error(
      `the agent-life scorer failed (${res.exitCode}): ${String(res.stderr).slice(-2000)}\n${String(res.stdout).slice(-2000)}`,
    );
  return { dataDir: options.dataDir, ...parseScorerOutput(String(res.stdout)), seconds: (Date.now() - started) / 1000 };
}

const f3 = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(3));

export function agentLifeTable(r: AgentLifeReport): string {
  const f = r.figures;
  const verdict = (key: string) => {
    const t = AGENTLIFE_TARGETS[key];
    if (!t || f[key] === undefined) return ' ';
    const ok = t.atMost ? f[key]! <= t.target : f[key]! >= t.target;
    return ` ${t.atMost ? '≤' : '≥'} ${t.target} ${ok ? '✓' : '✗'} `;
  };
  const out = [
    `Agent-life (${r.dataDir}; the scorer through the real CLI, ${r.seconds.toFixed(0)} s; n=${f.n ?? '?'} questions with evidence)`,
    '',
    '| figure | OC-Memory | same-run baseline (FTS5 over raw turns) | target |',
    '|---|---|---|---|',
    `| R@10 | ${f3(f['R@10'])} | ${f3(f['base_R@10'])} | |`,
    `| R@1kTok | ${f3(f['R@1kTok'])} | ${f3(f['base_R@1kTok'])} | |`,
  ];
  for (const key of ['current_first', 'inject_recall', 'abstain_inject', 'active_include', 'active_exclude'])
    out.push(`| ${key} | ${f3(f[key])} | |${verdict(key)}|`);
  out.push(`| observation tokens / transcript | ${f['obs/transcript']?.toFixed(2) ?? '–'} | |${verdict('obs/transcript')}|`);
  out.push('', '| category | n | R@5 | R@10 | R@1kTok | inject_recall | base R@10 | base R@1kTok |', '|---|---|---|---|---|---|---|---|');
  for (const c of r.categories)
    out.push(
      `| ${c.category} | ${c.questions} | ${f3(c.r5)} | ${f3(c.r10)} | ${f3(c.r1kTok)} | ${f3(c.injectRecall)} | ${f3(c.baseR10)} | ${f3(c.baseR1kTok)} |`,
    );
  out.push('');
  for (const file of r.files) out.push(file.line, ...file.notes.map((n) => `  ${n}`));
  out.push(...r.summary);
  return out.join('\n');
}
