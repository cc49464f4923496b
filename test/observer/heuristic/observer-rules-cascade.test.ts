/**
 * Every rule of the Observer's cascade (lib/observer/heuristic/rules/cascade.ts) is reachable in both languages: each
 * rule's own examples are classified by that rule, not by an earlier one. A rule that an earlier rule
 * shadows (or whose pattern a language lost) fails here by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CASCADE, EXAMPLE_CONTEXT, firstRule, type Language } from '../../../lib/observer/heuristic/rules/cascade.js';
import { analyseEnglish, english } from '../../../lib/observer/heuristic/rules/en.js';
import { analyseKorean, korean } from '../../../lib/observer/heuristic/rules/ko.js';

const LANGUAGES: Array<{ name: 'en' | 'ko'; language: Language; analyse: typeof analyseEnglish }> = [
  { name: 'en', language: english, analyse: analyseEnglish },
  { name: 'ko', language: korean, analyse: analyseKorean },
];

test('the cascade has rules with distinct names, and the catch-all comes last', () => {
  assert.ok(CASCADE.length >= 2);
  assert.equal(new Set(CASCADE.map((r) => r.name)).size, CASCADE.length, 'two rules share a name');
  assert.equal(CASCADE.at(-1)!.name, 'fact');
});

for (const { name: lang, language, analyse } of LANGUAGES) {
  for (const rule of CASCADE) {
    test(`${lang}: rule "${rule.name}" fires on its example`, () => {
      const example = rule.examples[lang];
      assert.ok(example.trim().length > 0, `rule "${rule.name}" has no ${lang} example`);
      const fired = firstRule(language, example, EXAMPLE_CONTEXT).rule;
      assert.equal(fired.name, rule.name, `"${example}" is classified by "${fired.name}", not by "${rule.name}"`);
      // The public classification is the rule's.
      const analysis = analyse(example, EXAMPLE_CONTEXT);
      assert.deepEqual(
        { kind: analysis.kind, category: analysis.category, priority: analysis.priority, done: analysis.done },
        { kind: rule.kind, category: rule.category, priority: rule.priority, done: rule.done ?? false },
      );
    });
  }
}
