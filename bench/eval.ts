/**
 * `npm run eval`: retrieval-quality sections, each printing a table and
 * writing JSON to bench/results/. Add a section: one entry in SECTIONS.
 *
 *   npm run eval                   all sections
 *   npm run eval -- locomo --cli   one section, with its flags
 *   npm run eval -- paraphrase --embeddings-url http://127.0.0.1:11434/v1
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

interface Section {
  name: string;
  run(args: string[]): Promise<{ table: string; json: unknown }>;
}

const ROOT = resolve(import.meta.dirname, '..');

const SECTIONS: Section[] = [
  {
    name: 'locomo',
    async run(args) {
      const { runLocomoEval, locomoTable } = await import('./locomo-eval.js');
      const report = await runLocomoEval({
        dataDir: resolve(ROOT, '..', 'shared', 'data', 'locomo-dev'),
        useCli: args.includes('--cli'),
        keep: args.includes('--keep'),
        names: !args.includes('--no-names'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: locomoTable(report), json: report };
    },
  },
  {
    name: 'observer',
    async run(args) {
      const { runObserverQuality, observerQualityTable } = await import('./observer-quality.js');
      const report = await runObserverQuality({
        // (A worktree beside the checkout sets LOCOMO_DIR to the same ../shared/data/locomo-dev.)
        dataDir: process.env.LOCOMO_DIR ?? resolve(ROOT, '..', 'shared', 'data', 'locomo-dev'),
        keep: args.includes('--keep'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: observerQualityTable(report), json: report };
    },
  },
  {
    name: 'paraphrase',
    async run(args) {
      const { runParaphraseEval, paraphraseTable } = await import('./paraphrase-eval.js');
      const at = args.indexOf('--embeddings-url');
      const report = await runParaphraseEval({
        embeddingsUrl: at >= 0 ? args[at + 1] : undefined,
        keep: args.includes('--keep'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: paraphraseTable(report), json: report };
    },
  },
  {
    name: 'priorities',
    async run(args) {
      const { runPriorityEval, priorityTable } = await import('./priority-eval.js');
      const report = await runPriorityEval({ keep: args.includes('--keep'), log: (line) => process.stderr.write(`${line}\n`) });
      return { table: priorityTable(report), json: report };
    },
  },
  {
    name: 'agentlife',
    async run(args) {
      const { runAgentLifeEval, agentLifeTable } = await import('./agentlife-eval.js');
      const report = await runAgentLifeEval({
        dataDir: process.env.AGENTLIFE_DIR ?? resolve(ROOT, '..', 'shared', 'data', 'agentlife-dev'),
        scorer: process.env.AGENTLIFE_SCORER ?? resolve(ROOT, '..', 'shared', 'eval', 'agentlife_run.py'),
        keep: args.includes('--keep'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: agentLifeTable(report), json: report };
    },
  },
  {
    name: 'tokens',
    async run(args) {
      const { runTokenEfficiency, tokenEfficiencyTable } = await import('./token-efficiency.js');
      const report = await runTokenEfficiency({
        dataDir: resolve(ROOT, '..', 'shared', 'data', 'locomo-dev'),
        keep: args.includes('--keep'),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      return { table: tokenEfficiencyTable(report), json: report };
    },
  },
];

const args = process.argv.slice(2);
const wanted = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--embeddings'));
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
for (const section of SECTIONS) {
  if (wanted.length && !wanted.includes(section.name)) continue;
  process.stderr.write(`== eval: ${section.name}\n`);
  const { table, json } = await section.run(args);
  process.stdout.write(`${table}\n\n`);
  await writeFile(
    join(ROOT, 'bench', 'results', `eval-${section.name}.json`),
    `${JSON.stringify({ at: new Date().toISOString(), ...(json as object) }, null, 2)}\n`,
  );
}
