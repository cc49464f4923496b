/**
 * Who said it, in the third person (attribute), as data: the ways a sentence
 * is restated for its speaker are two ordered tables, ENGLISH_ATTRIBUTION and
 * KOREAN_ATTRIBUTION, each entry a name and a restatement that applies or
 * passes (undefined); the first that applies wins, the last always does.
 * Also a question said as asked (questionBody) and a verbless working rule
 * said as wanted (statedRule).
 */
import { isCommonWord, requestOf, restateEnglish, restateQuestion } from './rules/en.js';
import { anyOf, pattern } from '../../core/pattern.js';

/**
 * Is the capital of the text's first word only the sentence's ("Fixed it", "Login is done") rather than
 * a name's ("Mira's eyes", "PostgreSQL 16")? A word written capitalised elsewhere in the text, with
 * capitals or digits inside, or followed by "'s" is taken as a name.
 */
function startsWithOrdinaryWord(text: string, firstWord: string): boolean {
  if (!/^[A-Z][a-z]*$/.test(firstWord) || firstWord === 'I') return false;
  if (isCommonWord(firstWord) || NUMBER_WORD.test(firstWord)) return true;
  if (text.startsWith(`${firstWord}'s`)) return false;
  return !new RegExp(`\\s${firstWord}\\b`).test(text.slice(firstWord.length));
}

const NUMBER_WORD = pattern(
  [
    /^/,
    anyOf(
      ...[
        'zero',
        'one',
        'two',
        'three',
        'four',
        'five',
        'six',
        'seven',
        'eight',
        'nine',
        'ten',
        'eleven',
        'twelve',
        'twenty',
        'thirty',
        'forty',
        'fifty',
        'hundred',
        'thousand',
      ],
      ...['half', 'once', 'twice', 'every', 'each', 'most', 'some', 'several', 'both', 'either', 'neither'],
    ),
    /$/,
  ],
  'i',
);

/**
 * A sentence whose subject, the speaker, is left out: a past verb, "been", or a present participle after an adverb
 * ("Fixed it", "Been reading a lot", "Still working on the studio", "Going to continue my education").
 * Group 1: the adverbs, group 2: the verb.
 */
const LEADING_ADVERBS = /((?:(?:still|just|also|finally|recently|currently|already)\s+)*)/;
const PAST_VERBS = [
  'been',
  'fixed',
  'finished',
  'merged',
  'deployed',
  'shipped',
  'tried',
  'tested',
  'added',
  'updated',
  'removed',
  'pushed',
  'started',
  'got',
  'went',
  'had',
  'made',
  'spent',
];
const PAST_VERBS_MORE = ['moved', 'bought', 'visited', 'took', 'met', 'saw', 'wrote'];
/** "still working", "going to": a participle that needs an adverb before it (or "to" after it). */
const PARTICIPLE_AFTER_ADVERB =
  /(?:(?<=still\s|currently\s|just\s|also\s)|(?=going to\b))(?:working|trying|planning|thinking|hoping|looking|getting|going)/;
/** "Reading a lot", but not "Reading is fun". */
const PURSUIT =
  /(?:researching|reading|learning|studying|building|writing|planning|preparing|looking into|working on)(?!\s+(?:is|was|are|were|can|has|makes?|helps?|feels?|seems?|gives?|takes?)\b)/;
const IMPLICIT_SUBJECT = pattern(
  [/^/, LEADING_ADVERBS, '(', [...PAST_VERBS, ...PAST_VERBS_MORE, PARTICIPLE_AFTER_ADVERB.source, PURSUIT.source].join('|'), ')', /\b/],
  'i',
);

/** Common imperative verbs: a sentence starting with one is advice or a request, said as "X advised to …". */
const IMPERATIVE_VERBS = [
  'use',
  'keep',
  'store',
  'add',
  'run',
  'try',
  'make',
  'set',
  'check',
  'avoid',
  'install',
  'create',
  'write',
  'fix',
  'update',
  'remove',
  'delete',
  'move',
];
const IMPERATIVE_VERBS_MORE = [
  'rotate',
  'call',
  'send',
  'take',
  'give',
  'put',
  'wrap',
  'read',
  'open',
  'close',
  'start',
  'stop',
  'restart',
  'consider',
  'remember',
  'note',
  'switch',
];
const IMPERATIVE_VERBS_LAST = [
  'change',
  'replace',
  'enable',
  'disable',
  'turn',
  'configure',
  'mark',
  'drop',
  'skip',
  'pin',
  'upgrade',
  'downgrade',
  'review',
  'test',
  'build',
  'deploy',
];
const IMPERATIVE_WORDS = [
  'merge',
  'commit',
  'push',
  'pull',
  'look',
  'go',
  'follow',
  'ask',
  'tell',
  'let',
  "don't",
  'do not',
  'never',
  'always',
];
const IMPERATIVE = pattern(
  [/^(?:please\s+)?/, anyOf(...IMPERATIVE_VERBS, ...IMPERATIVE_VERBS_MORE, ...IMPERATIVE_VERBS_LAST, ...IMPERATIVE_WORDS), /\b/],
  'i',
);

/** A working rule said without a verb (the preference rules of rules/en.ts): "one thing — SQLAlchemy Core only", "No ORM models, no Session". */
const RULE_LEAD = /^(?:(?:one thing|also|and|oh|rule|note|important|fyi)\s*[^\w\s]{0,2}\s*)?(?:please\s+)?/;
/** "SQLAlchemy Core only" (not "it only", "that only"). */
const X_ONLY = /(?!(?:it|that|this|there|he|she|they|we|i|you|is|was|not)\b)(?:[\w.+#/()'-]+\s+){0,4}[\w.+#/()'-]+\s+only/;
const ONLY_X = /only\s+[\w.+#/-]+(?:\s+[\w.+#/()'-]+){0,5}/;
const NO_X_NO_Y = /no\s+[\w.+#/()'-]+(?:\s+[\w.+#/()'-]+){0,3}\s*,\s*(?:and\s+)?no\s+.+?/;
const VERBLESS_RULE = pattern([RULE_LEAD, '(', anyOf(X_ONLY, ONLY_X, NO_X_NO_Y), ')', /(?:\s*,\s*please|\s+please)?([.!]*)$/], 'i');

/** "SQLAlchemy Core only." said as what the speaker wants: "Nadia wants SQLAlchemy Core only." (undefined: not such a rule). */
export function statedRule(sentence: string, speaker: string): string | undefined {
  const m = VERBLESS_RULE.exec(sentence.trim());
  if (!m) return undefined;
  const rule = m[1]!;
  const first = /^[A-Za-z']+/.exec(rule)?.[0] ?? '';
  return `${speaker} wants ${startsWithOrdinaryWord(rule, first) ? rule.charAt(0).toLowerCase() + rule.slice(1) : rule}${m[2] || '.'}`;
}

/** "Here is / Here's the X: value (— request)": group 1 the determiner, 2 "X: value", 3 the request after a dash. */
const HANDED_OVER = /^here(?:'s| is| are)\s+(the|my|our|a|an|some)\s+([^:]{1,80}:\s*\S.*?)(?:\s+[—–]\s+(.+))?$/i;

/** "(For the database,) we'll use …" / "we will go with …" / "we're going to …" (not "… not"): group 1 the scope words before it, group 2 what was decided. */
const WE_WILL = /^((?:for|in|on|with|at|about)\b[^,]{1,60},\s*)?we(?:'ll| will|'re going to| are going to)\s+(?!not\b|never\b)(.+)$/i;

/** What a restatement knows of the sentence it restates. */
interface Attribution {
  /** The sentence (or the sentences of a group), its dates resolved. */
  text: string;
  speaker: string;
  /** The sentence is a decision: "let's …" and "we'll …" say what was decided. */
  decision: boolean;
}

/** One way of saying who said it: the restated text, or undefined when it does not apply. */
interface AttributionRule {
  name: string;
  restate(said: Attribution): string | undefined;
}

/** A language's ways of restating, tried in order; `otherwise` when none applies. */
interface AttributionTable {
  rules: readonly AttributionRule[];
  otherwise(said: Attribution): string;
}

/** Does the text name the speaker (a whole word)? */
function namesSpeaker(text: string, speaker: string): boolean {
  return new RegExp(`\\b${speaker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text);
}

/** English, in the order they are tried. */
export const ENGLISH_ATTRIBUTION: AttributionTable = {
  rules: [
    {
      // "Fixed it." / "Been reading a lot." / "Still working on the studio.": the speaker is the subject left out.
      name: 'subject left out',
      restate: ({ text, speaker }) => {
        const implicit = IMPLICIT_SUBJECT.exec(text);
        if (!implicit) return undefined;
        const verb = implicit[2]!.toLowerCase();
        const aux = verb === 'been' ? 'has ' : verb.split(' ')[0]!.endsWith('ing') ? 'is ' : '';
        return `${speaker} ${aux}${(implicit[1] ?? '').toLowerCase()}${verb}${text.slice(implicit[0].length)}`;
      },
    },
    {
      name: 'names the speaker',
      restate: ({ text, speaker }) => (namesSpeaker(text, speaker) ? text.charAt(0).toUpperCase() + text.slice(1) : undefined),
    },
    {
      name: "let's",
      restate: ({ text, speaker, decision }) =>
        /^let's\s+/i.test(text) ? `${speaker} ${decision ? 'decided' : 'suggested'} to ${text.replace(/^let's\s+/i, '')}` : undefined,
    },
    {
      // A decision said as "(For the database,) we'll use X": "For the database, User decided to use X".
      name: "we'll (a decision)",
      restate: ({ text, speaker, decision }) => {
        const weWill = decision ? WE_WILL.exec(text) : null;
        if (!weWill) return undefined;
        const scopeWords = (weWill[1] ?? '').replace(/,\s*$/, '');
        const decided = `${speaker} decided to ${weWill[2]}`;
        return scopeWords ? `${scopeWords.charAt(0).toUpperCase()}${scopeWords.slice(1)}, ${decided}` : decided;
      },
    },
    {
      // "Because forEach ignores the promises…" answers a why.
      name: 'because',
      restate: ({ text, speaker }) =>
        /^because\s+/i.test(text) ? `${speaker} explained that ${text.replace(/^because\s+/i, '')}` : undefined,
    },
    {
      name: 'advice',
      restate: ({ text, speaker }) => {
        if (!IMPERATIVE.test(text)) return undefined;
        const advice = text.replace(/^please\s+/i, '');
        return `${speaker} advised to ${advice.charAt(0).toLowerCase()}${advice.slice(1)}`;
      },
    },
    {
      // "Here is the OpenAI key for the receipt parser: … — put it in .env please." hands something over (and asks).
      name: 'handed over',
      restate: ({ text, speaker }) => {
        const handed = HANDED_OVER.exec(text);
        if (!handed || (handed[3] !== undefined && !IMPERATIVE.test(handed[3]))) return undefined;
        const gave = `${speaker} gave ${handed[1]!.toLowerCase()} ${handed[2]!.replace(/[.!]+$/, '')}`;
        if (handed[3] === undefined) return `${gave}.`;
        const request = handed[3]
          .replace(/^please\s+/i, '')
          .replace(/[\s,]*please[.!]*$/i, '')
          .replace(/[.!]+$/, '');
        return `${gave}, and asked to ${request.charAt(0).toLowerCase()}${request.slice(1)}.`;
      },
    },
  ],
  // "A tabby cat…" → "said a tabby cat…"; a name or "I" stays as it is.
  otherwise: ({ text, speaker }) => {
    const firstWord = /^[A-Za-z']+/.exec(text)?.[0] ?? '';
    const lowered = startsWithOrdinaryWord(text, firstWord) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
    return `${speaker} said ${lowered}`;
  },
};

/** Korean, in the order they are tried: the speaker as the topic ("사용자는 …"). */
export const KOREAN_ATTRIBUTION: AttributionTable = {
  rules: [
    { name: 'names the speaker', restate: ({ text, speaker }) => (text.includes(speaker) ? text : undefined) },
    {
      // Advice "…감싸면 된다." is what the speaker advised, not something the speaker is: "…감싸면 된다고 조언했다."
      name: 'advice',
      restate: ({ text, speaker }) =>
        KOREAN_ADVICE.test(text) ? `${koreanTopic(speaker)} ${text.replace(KOREAN_ADVICE, '면 된다고 조언했다.')}` : undefined,
    },
  ],
  otherwise: ({ text, speaker }) => `${koreanTopic(speaker)} ${text}`,
};

/** "…면 된다." ("… will do"): advice. */
const KOREAN_ADVICE = /면 된다[.!]?(?=\s|$)/;

/** The speaker with the topic particle: "사용자는", "민준은". */
function koreanTopic(speaker: string): string {
  return `${speaker}${hasFinalConsonant(speaker) ? '은' : '는'}`;
}

/** The first restatement of `table` that applies. */
function restateBy(table: AttributionTable, said: Attribution): string {
  for (const rule of table.rules) {
    const restated = rule.restate(said);
    if (restated !== undefined) return restated;
  }
  return table.otherwise(said);
}

/**
 * Say who said it, in the third person, without a "Speaker:" prefix: a text naming the speaker
 * stands as it is; advice becomes "Assistant advised to …"; anything else "User said …"
 * (Korean: "사용자는 …"). Without `select`: "User: …".
 */
export function attribute(text: string, speaker: string, korean: boolean, select = true, decision = false): string {
  if (text.startsWith(speaker)) return text;
  if (select) return restateBy(korean ? KOREAN_ATTRIBUTION : ENGLISH_ATTRIBUTION, { text, speaker, decision });
  // "User: we're on GitHub" reads better as "User: We're on GitHub".
  return `${speaker}: ${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Does the last Hangul syllable have a final consonant (받침)? */
function hasFinalConsonant(word: string): boolean {
  const last = word.charCodeAt(word.length - 1);
  return last >= 0xac00 && last <= 0xd7a3 && (last - 0xac00) % 28 !== 0;
}

/** "How do I validate JWT refresh tokens?" → "User asked how to validate JWT refresh tokens." */
export function questionBody(sentence: string, speaker: string, listener: string | undefined, listenerLabel: string): string {
  const request = requestOf(sentence);
  if (request) return `${speaker} asked ${listener ?? listenerLabel} to ${restateEnglish(request, speaker, listener)}`;
  const restated = restateQuestion(sentence);
  if (restated !== sentence.trim()) return `${speaker} asked ${restateEnglish(restated, speaker, listener)}`;
  return `${speaker} asked: ${restateEnglish(sentence.trim(), speaker, listener)}`;
}
