/**
 * The import direction between the folders of lib/ (docs/architecture.md,
 * "The layers"): a folder may import itself and the folders above it in that
 * table, never one below it. This reads every import of every lib/**\/*.ts
 * file — `import … from`, `export … from`, `import type`, dynamic `import()`
 * and `import('…').Type` — as the TypeScript compiler itself lists them for
 * the program (SourceFile.imports), and fails naming the file, the import and
 * the rule it breaks. The table in the doc is the rule: the test reads it, so
 * the two cannot drift apart.
 *
 * TypeScript 7 (the dev dependency) has no in-process parser API; its
 * `typescript/unstable/sync` API runs the same compiler `npm run build` runs
 * (the version the lock file pins) and answers in ~5 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind, type Node } from 'typescript/unstable/ast';

const ROOT = join(import.meta.dirname, '..', '..');
const LIB = join(ROOT, 'lib');

/** The folders of lib/ in the order of the table under "## The layers" (top first). */
export function layerOrder(doc: string): string[] {
  const section = doc.split(/^## /m).find((s) => s.startsWith('The layers'));
  assert.ok(section, 'docs/architecture.md has a section "## The layers"');
  return [...section.matchAll(/^\| `lib\/([a-z-]+)\/` \|/gm)].map((m) => m[1]!);
}

type ImportKind = 'import' | 'import type' | 'dynamic import()' | "import('…') type";

interface LibImport {
  /** The importing file, relative to the repository. */
  file: string;
  specifier: string;
  kind: ImportKind;
}

function importKind(node: Node): ImportKind {
  const parent = node.parent;
  if (parent.kind === SyntaxKind.CallExpression) return 'dynamic import()';
  if (parent.kind === SyntaxKind.LiteralType) return "import('…') type";
  const declaration = parent as Node & { importClause?: { isTypeOnly?: boolean }; isTypeOnly?: boolean };
  return declaration.importClause?.isTypeOnly || declaration.isTypeOnly ? 'import type' : 'import';
}

/** Every import of every file of the build (lib/, scripts/, the OpenClaw plugin), as the compiler lists it. */
function programImports(): LibImport[] {
  const api = new API({ cwd: ROOT });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [join(ROOT, 'tsconfig.build.json')] });
    const program = snapshot.getProjects()[0]!.program;
    const files = program
      .getSourceFileNames()
      .filter((name) => resolve(name).startsWith(ROOT + sep) && !resolve(name).includes(`${sep}node_modules${sep}`));
    return files.flatMap((name) => {
      const source = program.getSourceFile(name)!;
      return source.imports.map((node) => ({
        file: relative(ROOT, name).split(sep).join('/'),
        specifier: (node as Node & { text: string }).text,
        kind: importKind(node),
      }));
    });
  } finally {
    api.close();
  }
}

let imported: LibImport[] | undefined;
/** The imports of the build, read once for every test of this file (the compiler takes seconds). */
function allImports(): LibImport[] {
  imported ??= programImports();
  return imported;
}

/** Every import of every file under lib/. */
function libImports(): LibImport[] {
  return allImports().filter((i) => i.file.startsWith('lib/'));
}

/** The repository path an import names (undefined: a package or a node: builtin), without its extension. */
function importedPath(i: LibImport): string | undefined {
  if (!i.specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(ROOT, dirname(i.file), i.specifier))
    .split(sep)
    .join('/')
    .replace(/\.(c|m)?js$/, '');
}

/** lib/<layer>/… → layer; undefined outside lib/. */
function layerOf(path: string): string | undefined {
  const rel = relative(LIB, path);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0];
}

const ORDER = layerOrder(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));

test('the table in docs/architecture.md names every folder of lib/ once, and lib/ has no loose modules', () => {
  const entries = readdirSync(LIB, { withFileTypes: true });
  assert.deepEqual(
    entries.filter((e) => !e.isDirectory()).map((e) => e.name),
    [],
    'modules belong in a layer folder',
  );
  assert.deepEqual(
    [...ORDER].sort(),
    entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(),
  );
  assert.equal(new Set(ORDER).size, ORDER.length);
});

/** What breaks the rule: an import of a layer below the importer's own, or a path out of lib/. */
function layerViolations(imports: LibImport[], order: string[]): string[] {
  const violations: string[] = [];
  for (const { file, specifier, kind } of imports) {
    if (!specifier.startsWith('.')) continue; // a package or node: builtin
    const from = layerOf(join(ROOT, file))!;
    const to = layerOf(resolve(ROOT, dirname(file), specifier));
    if (to === undefined) {
      violations.push(`${file}: ${kind} '${specifier}' leaves lib/ (lib/ imports only lib/ and packages)`);
    } else if (!order.includes(to) || order.indexOf(to) > order.indexOf(from)) {
      violations.push(
        `${file}: ${kind} '${specifier}' — ${from}/ may not import ${to}/ (${to} is below ${from} in docs/architecture.md, "The layers")`,
      );
    }
  }
  return violations;
}

test('no module of lib/ imports a layer below its own, or anything outside lib/ by path', () => {
  const imports = libImports();
  assert.ok(imports.length > 500, `the compiler listed the imports (${imports.length})`);
  assert.ok(
    imports.some((i) => i.kind === 'dynamic import()') && imports.some((i) => i.kind === 'import type'),
    'dynamic and type-only imports are among them',
  );
  assert.deepEqual(layerViolations(imports, ORDER), []);
});

test('the rule itself: down the table fails, up the table and within a folder pass', () => {
  const order = ['core', 'memory', 'tiers'];
  const imports: LibImport[] = [
    { file: 'lib/memory/export.ts', specifier: '../tiers/audit.js', kind: 'import' },
    { file: 'lib/core/types.ts', specifier: '../memory/day-file/index.js', kind: "import('…') type" },
    { file: 'lib/memory/a.ts', specifier: '../../scripts/cli.js', kind: 'dynamic import()' },
    { file: 'lib/tiers/moves.ts', specifier: '../memory/day-file/index.js', kind: 'import' },
    { file: 'lib/tiers/moves.ts', specifier: './ops.js', kind: 'import type' },
    { file: 'lib/memory/day-file/parse.ts', specifier: '../../core/types.js', kind: 'import' },
    { file: 'lib/memory/a.ts', specifier: 'node:fs', kind: 'import' },
  ];
  assert.deepEqual(layerViolations(imports, order), [
    `lib/memory/export.ts: import '../tiers/audit.js' — memory/ may not import tiers/ (tiers is below memory in docs/architecture.md, "The layers")`,
    `lib/core/types.ts: import('…') type '../memory/day-file/index.js' — core/ may not import memory/ (memory is below core in docs/architecture.md, "The layers")`,
    `lib/memory/a.ts: dynamic import() '../../scripts/cli.js' leaves lib/ (lib/ imports only lib/ and packages)`,
  ]);
});

/** The modules of the segment engine, the one storage behind `Engine` (lib/search/engine.ts). */
const SEGMENT_ENGINE = /^lib\/search\/(segment-engine|open-index|segment|pack|manifest)$/;

/** Imports of the segment engine's own modules from anywhere but lib/search/, and constructions of it but the one in open-engine.ts. */
export function engineSeamViolations(imports: LibImport[]): string[] {
  return imports.flatMap((i) => {
    const to = importedPath(i);
    if (to === undefined || !SEGMENT_ENGINE.test(to)) return [];
    if (!i.file.startsWith('lib/search/'))
      return [
        `${i.file}: ${i.kind} '${i.specifier}' — only lib/search/ knows how the index is stored; use Engine / IndexReader (lib/search/engine.ts) from lib/search/open-engine.ts`,
      ];
    if (
      to === 'lib/search/segment-engine' &&
      i.kind !== 'import type' &&
      !/^lib\/search\/(open-engine|open-index|search)\.ts$/.test(i.file)
    )
      return [`${i.file}: ${i.kind} '${i.specifier}' — the segment engine is constructed in lib/search/open-engine.ts only`];
    return [];
  });
}

test('the Engine seam: nothing outside lib/search/ names the segment engine, and only open-engine.ts constructs it', () => {
  const imports = allImports();
  assert.ok(
    imports.some((i) => i.file.startsWith('scripts/')) && imports.some((i) => i.file.startsWith('templates/')),
    'scripts/ and the OpenClaw plugin are read too',
  );
  assert.deepEqual(engineSeamViolations(imports), []);
  const named = imports.filter((i) => !i.file.startsWith('lib/search/')).map((i) => i.file);
  for (const file of new Set(named))
    assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /\bSegmentEngine\b/, `${file} names SegmentEngine`);
});

test('the Engine seam rule itself: a front end importing the segment engine fails, open-engine.ts passes', () => {
  assert.deepEqual(
    engineSeamViolations([
      { file: 'lib/ui/app.ts', specifier: '../search/segment-engine.js', kind: 'import' },
      { file: 'scripts/commands/mcp.ts', specifier: '../../lib/search/open-index.js', kind: 'import type' },
      { file: 'lib/search/get.ts', specifier: './segment-engine.js', kind: 'import' },
      { file: 'lib/search/open-engine.ts', specifier: './segment-engine.js', kind: 'import' },
      { file: 'lib/features/doctor.ts', specifier: '../search/open-engine.js', kind: 'dynamic import()' },
    ]).length,
    3,
  );
});

/**
 * The front ends — the CLI's commands, the MCP server, the prompt
 * hooks, the dashboard and REST API, the OpenClaw plugin — reach the memory
 * through lib/api/ (docs/architecture.md, "The front door"): none of them
 * loads a module that does a memory operation itself (search, get, the
 * writers, mark, forget, status, the index, the tier moves and approvals,
 * the audit log, the tiers' files, the stats, state.json, export, import and
 * backup, the jobs, the home lock, encryption, known agents, the embedder).
 * Types may come from anywhere here (the commands are held to lib/api/ for
 * those too, below); pure helpers (formatting, filters, errors) stay where they are.
 */
const FRONT_ENDS = /^(lib\/(mcp|hooks|ui)\/|templates\/openclaw-plugin\/|scripts\/commands\/[^/]+\.ts$)/;
const MEMORY_OPERATIONS =
  /^lib\/(search\/(search|get|indexer|open-engine|freshness)|memory\/(active-memory-reader|active-memory-file|day-file-buffer|lifecycle-file|memory-files)|observe\/job|tiers\/(forget|tier-job|approvals|proposal-details|audit|locations|search-index|export|import|backup)|jobs\/(forget|mark|reflect|run-job|tier-step|watch|sync\/index)|features\/(status|stats)|platform\/(state|lock|encryption|home-contents)|sources\/openclaw-files|api\/recall)$/;
export function frontDoorViolations(imports: LibImport[]): string[] {
  return imports.flatMap((i) => {
    if (!FRONT_ENDS.test(i.file) || i.kind === 'import type' || i.kind === "import('…') type") return [];
    const to = importedPath(i);
    if (to === undefined || !MEMORY_OPERATIONS.test(to)) return [];
    return [`${i.file}: ${i.kind} '${i.specifier}' — a front end does this through lib/api/ (openMemory), not ${to}.ts`];
  });
}

test('the front door: front ends reach the memory only through lib/api/', () => {
  const imports = allImports();
  assert.ok(
    imports.some((i) => i.file === 'scripts/commands/search.ts' && importedPath(i)?.startsWith('lib/api/')),
    'ocm-run search goes through lib/api/',
  );
  assert.deepEqual(frontDoorViolations(imports), []);
});

test('the front door rule itself: a front end loading search or a writer fails; types and lib/api pass', () => {
  assert.deepEqual(
    frontDoorViolations([
      { file: 'scripts/commands/search.ts', specifier: '../../lib/search/search.js', kind: 'dynamic import()' },
      { file: 'lib/ui/curate.ts', specifier: '../memory/day-file-buffer.js', kind: 'import' },
      { file: 'lib/hooks/agent-hooks.ts', specifier: '../search/search.js', kind: 'import type' },
      { file: 'lib/mcp/server.ts', specifier: '../api/tools.js', kind: 'import' },
      { file: 'lib/jobs/run-job.ts', specifier: '../search/indexer.js', kind: 'import' },
      { file: 'scripts/commands/approvals.ts', specifier: '../../lib/tiers/tier-job.js', kind: 'dynamic import()' },
      { file: 'lib/ui/app.ts', specifier: '../features/stats.js', kind: 'dynamic import()' },
      { file: 'lib/ui/routes/active.ts', specifier: '../../memory/memory-files.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/archive.ts', specifier: '../../lib/tiers/report.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/export.ts', specifier: '../../lib/tiers/export.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/sync.ts', specifier: '../../lib/jobs/sync/index.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/tier.ts', specifier: '../../lib/api/maintenance.js', kind: 'dynamic import()' },
    ]).length,
    7,
  );
});

/**
 * A command of the CLI is its flags, one function mapping them onto the typed options of a lib/api/ call, the
 * call and the printing (docs/architecture.md, "The command line"). Every file of scripts/commands/ — a new
 * command too — imports from lib/ only lib/api/: not a job, an integration, the config or a helper, and not
 * even a type (lib/core/'s types included), so what a command speaks is what the package exports (lib/api/
 * re-exports the types and errors a caller needs; a type named from below would tie the command to where a
 * thing is implemented, which is what the door hides; a type costs nothing at run time either way). The
 * servers a command starts are front ends standing on lib/api/ themselves and are held to it by the rule
 * above: `mcp` may import lib/mcp/ and lib/hooks/ (the MCP server and the prompt socket it answers), `hook`
 * lib/hooks/, `ui` lib/ui/. The CLI's own plumbing (scripts/cli-context.ts, scripts/flags.ts, …) is not a
 * command.
 */
const DOOR_COMMANDS = /^scripts\/commands\/[^/]+\.ts$/;
const COMMAND_FRONT_ENDS: Readonly<Record<string, RegExp>> = {
  'scripts/commands/mcp.ts': /^lib\/(mcp|hooks)\//,
  'scripts/commands/hook.ts': /^lib\/hooks\//,
  'scripts/commands/ui.ts': /^lib\/ui\//,
};

export function commandDoorViolations(imports: LibImport[]): string[] {
  return imports.flatMap((i) => {
    if (!DOOR_COMMANDS.test(i.file)) return [];
    const to = importedPath(i);
    if (to === undefined || !to.startsWith('lib/') || to.startsWith('lib/api/')) return [];
    if (COMMAND_FRONT_ENDS[i.file]?.test(to)) return [];
    return [`${i.file}: ${i.kind} '${i.specifier}' — a command reaches lib/ through lib/api/ only, not ${to}.ts`];
  });
}

test('the commands reach lib/ only through lib/api/ (types too), the servers they start aside', () => {
  const imports = allImports();
  const commands = new Set(imports.filter((i) => DOOR_COMMANDS.test(i.file)).map((i) => i.file));
  const files = readdirSync(join(ROOT, 'scripts', 'commands')).filter((name) => name.endsWith('.ts'));
  assert.ok(files.length >= 36, `scripts/commands/ was listed (${files.length})`);
  assert.deepEqual(
    files.map((name) => `scripts/commands/${name}`).filter((file) => !commands.has(file)),
    [],
    'every command file was read',
  );
  assert.deepEqual(commandDoorViolations(imports), []);
});

test('the command rule itself: a job, a type from below or a foreign server fails; lib/api and its own server pass', () => {
  assert.deepEqual(
    commandDoorViolations([
      { file: 'scripts/commands/observe.ts', specifier: '../../lib/jobs/run-job.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/forget.ts', specifier: '../../lib/tiers/forget.js', kind: 'import type' },
      { file: 'scripts/commands/schedule.ts', specifier: '../../lib/core/errors.js', kind: 'import' },
      { file: 'scripts/commands/status.ts', specifier: '../../lib/mcp/server.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/observe.ts', specifier: '../../lib/api/jobs.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/schedule.ts', specifier: '../cli-context.js', kind: 'import' },
      { file: 'scripts/commands/mcp.ts', specifier: '../../lib/hooks/prompt-socket.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/ui.ts', specifier: '../../lib/ui/server.js', kind: 'dynamic import()' },
      { file: 'scripts/commands/forget.ts', specifier: 'node:readline/promises', kind: 'dynamic import()' },
      { file: 'scripts/commands/a-new-command.ts', specifier: '../../lib/core/types.js', kind: "import('…') type" },
      { file: 'scripts/commands/index.ts', specifier: './observe.js', kind: 'dynamic import()' },
    ]).length,
    5,
  );
});

test('the OpenClaw plugin loads the package through its public entry, never a dist/lib/ path', () => {
  const plugin = readFileSync(join(ROOT, 'templates', 'openclaw-plugin', 'index.ts'), 'utf8');
  const runtime = allImports().filter(
    (i) =>
      i.file === 'templates/openclaw-plugin/index.ts' &&
      importedPath(i) !== undefined &&
      i.kind !== 'import type' &&
      i.kind !== "import('…') type",
  );
  assert.deepEqual(runtime, [], 'no module of the package is imported by path at run time');
  assert.ok(
    allImports().some((i) => i.file === 'templates/openclaw-plugin/index.ts' && importedPath(i) === 'lib/api/index'),
    "its types are the public entry's",
  );
  assert.doesNotMatch(plugin, /['"`]lib['"`]|dist\/lib|libPath/, 'no path into dist/lib/');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
  assert.equal(pkg.exports['.']!.default, './dist/lib/api/index.js');
});

test('the pi extension loads the package through its public entry, never a dist/lib/ path', () => {
  const extension = readFileSync(join(ROOT, 'templates', 'pi-extension', 'index.ts'), 'utf8');
  // pi loads the file from its extensions folder: only type imports may name the package's modules.
  const byPath = [...extension.matchAll(/^import(?!\s+type\b)[^;]*?from\s+['"](\.[^'"]*)['"]/gm)].map((m) => m[1]);
  assert.deepEqual(byPath, [], 'no module of the package is imported by path at run time');
  assert.doesNotMatch(extension, /['"`]lib['"`]|dist\/lib|libUrl/, 'no path into dist/lib/');
  assert.match(extension, /resolve\('oc-memory'\)/, "the package's own name, resolved through its exports");
});
