/**
 * The one place that decides which YAML library does what, for every YAML text OC-Memory handles
 * (config.yaml, the frontmatter of day files and reflections, a union-merged frontmatter):
 *   - reading: js-yaml with its core schema (dates stay strings), as gray-matter reads frontmatter.
 *     It loads faster than the `yaml` package, and the `yaml` package's duplicate-key check is
 *     quadratic (~40 ms for a 1000-entry map, js-yaml ~5 ms). Its errors carry `mark` (line and
 *     column) and `reason`, which config.yaml's message shows.
 *   - writing: the `yaml` package's serialiser.
 *   - editing text in place (comments and layout kept: `config set`, a changed frontmatter) and
 *     lenient reads (repeated keys): the `yaml` package's Document API.
 * Both are CommonJS and load on first use: a tick whose config is cached and whose frontmatters need
 * no edit loads neither.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jsYaml = (): typeof import('js-yaml') => require('js-yaml') as typeof import('js-yaml');

/** The `yaml` package, for its Document API (parseDocument, isMap, isScalar…): editing YAML text without losing comments. */
export function yamlDocuments(): typeof import('yaml') {
  return require('yaml') as typeof import('yaml');
}

/**
 * The value of a YAML text (core schema: dates stay strings; empty text → undefined). Throws js-yaml's
 * error on broken YAML: `mark` holds the line and column (from 0), `reason` the problem.
 */
export function readYaml(text: string, options: { filename?: string } = {}): unknown {
  const js = jsYaml();
  return js.load(text, { schema: js.CORE_SCHEMA, filename: options.filename });
}

/** YAML text of `value` as the `yaml` package writes it (the one serialiser: day files, reflections). */
export function formatYaml(value: unknown, options: import('yaml').ToStringOptions = {}): string {
  return yamlDocuments().stringify(value, options);
}

/** A value as the `yaml` package writes it on one line (quoted when it would read as another type). */
export function yamlValue(value: unknown): string {
  return yamlDocuments().stringify(value, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'flow' }).replace(/\n$/, '');
}
