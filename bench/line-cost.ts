/**
 * Where the tokens of observation lines go (docs/heuristic-observer.md, "Condensing, and what a line
 * costs"): the cl100k tokens of every observation line in the day files of one or more memory homes,
 * split into the line's frame (bullet, priority, time, category; the id), its tags and lifecycle mark,
 * and its text — the lines `agentlife_run.py` counts for obs/transcript.
 *
 *   node --import tsx bench/line-cost.ts HOME [HOME…]
 *
 * (e.g. the homes `python3 ../shared/eval/agentlife_run.py ../shared/data/agentlife-dev --keep` keeps).
 */
import { readFile } from 'node:fs/promises';
import fg from 'fast-glob';
import { getEncoding } from 'js-tiktoken';

const cl100k = getEncoding('cl100k_base');
const tokens = (text: string): number => (text ? cl100k.encode(text).length : 0);

/** An observation line as the scorer finds it: a list item starting with a priority or done marker. */
const OBSERVATION_LINE = /^\s*[-*] (?:🔴|🟡|🟢|✅)/u;
/** lead (bullet, markers, time, category) · text · trailing tags · lifecycle mark · id */
const PARTS = /^([-*] (?:✅ )?\S+ (?:\d\d:\d\d )?(?:\[[^\]]+\] )?)(.*?)((?: #[^\s#]+)*)( \((?:done|superseded)[^)]*\))?( \^o-[0-9a-f]+)?$/u;

interface LineCost {
  lines: number;
  whole: number;
  lead: number;
  id: number;
  tagsAndMarks: number;
  text: number;
}

export async function lineCost(homes: readonly string[]): Promise<LineCost> {
  const cost: LineCost = { lines: 0, whole: 0, lead: 0, id: 0, tagsAndMarks: 0, text: 0 };
  for (const home of homes) {
    const files = await fg('**/*.md', { cwd: home, absolute: true, ignore: ['**/active_memory*.md', '**/.*/**'] });
    for (const file of files.sort()) {
      for (const raw of (await readFile(file, 'utf8')).split('\n')) {
        if (!OBSERVATION_LINE.test(raw)) continue;
        const line = raw.trim();
        const m = PARTS.exec(line);
        cost.lines++;
        cost.whole += tokens(line);
        if (!m) {
          cost.text += tokens(line);
          continue;
        }
        cost.lead += tokens(m[1]!);
        cost.text += tokens(m[2]!);
        cost.tagsAndMarks += tokens(`${m[3] ?? ''}${m[4] ?? ''}`);
        cost.id += tokens(m[5] ?? '');
      }
    }
  }
  return cost;
}

const homes = process.argv.slice(2);
if (homes.length === 0) {
  process.stderr.write('usage: node --import tsx bench/line-cost.ts HOME [HOME…]\n');
  process.exit(2);
}
const cost = await lineCost(homes);
const per = (n: number) => (cost.lines ? (n / cost.lines).toFixed(1) : '0');
const share = (n: number) => (cost.whole ? `${Math.round((n / cost.whole) * 100)} %` : '0 %');
const rows: Array<[string, number]> = [
  ['bullet, priority, time, category', cost.lead],
  ['the id', cost.id],
  ['tags and lifecycle marks', cost.tagsAndMarks],
  ['the text', cost.text],
];
process.stdout.write(
  `${cost.lines} observation lines, ${cost.whole} tokens (cl100k)\n\n| part of the line | tokens | per line | share |\n|---|---|---|---|\n`,
);
for (const [name, n] of rows) process.stdout.write(`| ${name} | ${n} | ${per(n)} | ${share(n)} |\n`);
