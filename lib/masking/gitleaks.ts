/**
 * gitleaks' default rules (lib/masking/gitleaks-rules.ts, generated) as
 * masking rules: the secret capture group becomes the redaction and the text
 * around it stays, a secret at or below the rule's entropy threshold or on an
 * allow list stays, as in gitleaks' own detector.
 */
import { shannonEntropy } from './entropy.js';
import { GITLEAKS_GLOBAL_ALLOW, GITLEAKS_RULES, type GitleaksAllowList, type GitleaksRule } from './gitleaks-rules.js';
import type { Rule } from './rule.js';

interface CompiledAllow {
  target: 'secret' | 'match';
  regexes: RegExp[];
  stopwords: readonly string[];
}

function allowed(lists: readonly CompiledAllow[], secret: string, match: string): boolean {
  for (const list of lists) {
    const subject = list.target === 'match' ? match : secret;
    if (list.regexes.some((r) => r.test(subject))) return true;
    if (list.stopwords.length > 0) {
      const lower = secret.toLowerCase();
      if (list.stopwords.some((w) => lower.includes(w))) return true;
    }
  }
  return false;
}

function compileAllow(list: GitleaksAllowList): CompiledAllow {
  return { target: list.target, regexes: list.regexes.map((s) => new RegExp(s)), stopwords: list.stopwords };
}

function toRule(data: GitleaksRule, global: CompiledAllow): Rule {
  const lists = [global, ...data.allow.map(compileAllow)];
  return {
    kind: data.id,
    keywords: data.keywords,
    // d: group indices, to replace the secret group only.
    pattern: new RegExp(data.source, 'gd'),
    replace: (m, redaction) => {
      let group = data.secretGroup;
      if (group === 0) {
        for (let g = 1; g < m.length; g++) {
          if (m[g]) {
            group = g;
            break;
          }
        }
      }
      const secret = group === 0 ? m[0] : m[group];
      if (!secret) return null;
      if (secret.startsWith('[REDACTED')) return null;
      if (data.entropy > 0 && shannonEntropy(secret) <= data.entropy) return null;
      if (allowed(lists, secret, m[0])) return null;
      if (group === 0) return redaction;
      const span = m.indices?.[group];
      if (!span) return null;
      const start = span[0] - m.index;
      const end = span[1] - m.index;
      return m[0].slice(0, start) + redaction + m[0].slice(end);
    },
  };
}

/** gitleaks' rules compiled (call once: each call compiles them anew). */
export function gitleaksMaskingRules(): Rule[] {
  const global = compileAllow({ target: 'secret', ...GITLEAKS_GLOBAL_ALLOW });
  return GITLEAKS_RULES.map((rule) => toRule(rule, global));
}
