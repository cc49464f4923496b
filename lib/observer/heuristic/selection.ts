/**
 * What of a message is worth remembering, and how to say it short: the
 * selection and condensing stage of the heuristic Observer, between the
 * sentence rules (rules/en.ts, rules/ko.ts: what a sentence is) and the
 * drafting of observations (observer.ts). docs/heuristic-observer.md describes the
 * rubric these functions implement.
 *
 * Kept: statements about the people (who they are, what they did, plan,
 * decide, prefer, own, feel about their own life), the facts of the work
 * (names, numbers, dates, technologies), and anything the rules gave a strong
 * category. Dropped: reactions to what the other speaker said ("That's so
 * cool!", "You're so brave"), acknowledgements ("Noted", "기억해 둘게요"),
 * echoes of the other speaker's last message, general remarks that name
 * nothing ("Family support is invaluable"), and small-talk questions.
 * Pure functions.
 *
 * Size: one stage of the Observer (keep or drop a sentence, and condense it), about a function for each rule
 * of the rubric in docs/heuristic-observer.md; its long patterns are composed of named parts (core/pattern.ts).
 */
import type { SentenceAnalysis } from './rules/en.js';
import { isCommonWord } from './rules/en.js';
import { plainKorean } from './korean-style.js';
import { anyOf, oneOf, pattern } from '../../core/pattern.js';

/** What a sentence is judged against: the speaker, and what the other speaker said last. */
export interface SelectionContext {
  role: 'user' | 'assistant';
  /** Names of the two speakers (not content, not entities). */
  names: readonly string[];
  /** Content words of the other speaker's previous message (see contentWords). */
  previousOther: ReadonlySet<string>;
  /** Does the sentence carry a resolved date ("yesterday (2026-04-07)")? */
  dated: boolean;
  /** Did the tag detector find a technology or explicit #tag in it? */
  technical: boolean;
  /** Does the sentence's message answer a question the other speaker asked? */
  answers: boolean;
  /** Did the speaker open the sentence with an acknowledgement ("Noted:", "Got it —") that was stripped before judging? */
  acknowledged?: boolean;
}

/** Why a sentence is not kept, or undefined when it is. */
export type DropReason = 'acknowledgement' | 'reaction' | 'echo' | 'general' | 'small-talk question' | 'remember request';

// ---------------------------------------------------------------------------
// English

/** "I", "my"…: the speaker talks about themself. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b/i;
/** "we", "our": the speaker's group — or people in general ("Taking care of ourselves is vital"). */
const FIRST_PERSON_PLURAL = /\b(?:we|we're|we've|we'd|we'll|our|ours|us|ourselves)\b/i;
/** A sentence without its subject: "Been reading a lot lately.", "Still working on the studio." */
const IMPLICIT_FIRST_PERSON = pattern(
  [
    /^(?:(?:still|just|also|currently|finally|recently)\s+)?/,
    anyOf(
      'been',
      'working',
      'trying',
      'planning',
      'thinking',
      'hoping',
      'looking',
      'getting',
      'going',
      'started',
      'finished',
      'got',
      'went',
      'had',
      'made',
      'spent',
      'tried',
      'moved',
      'bought',
      'visited',
    ),
    /\b/,
  ],
  'i',
);
/** Someone else: "she", "his", "their". */
const THIRD_PERSON = /\b(?:he|she|he's|she's|his|her|hers|him|himself|herself)\b/i;
const SECOND_PERSON = /\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b/i;

/** A sentence that only acknowledges ("Noted.", "Got it, I'll remember that"). */
const ACKNOWLEDGEMENT_WORD = /(?:(?:ok(?:ay)?|sure|great|perfect|got it|noted|understood|will do|roger|gotcha)\b[\s,.!:-]*)*/;
const WILL_REMEMBER = pattern([
  /(?:i'll|i will|i'm going to|will|i've|i have)\s+/,
  anyOf(
    'remember',
    /keep (?:that|this|it) in mind/,
    /note (?:that|this|it)(?: down)?/,
    /make a note of (?:that|this|it)/,
    /noted (?:that|this|it)/,
  ),
  /(?:\s+(?:that|this|it))?(?:\s+for (?:you|later|next time))?/,
]);
const ACKNOWLEDGEMENT = pattern(
  [/^/, ACKNOWLEDGEMENT_WORD, anyOf(WILL_REMEMBER, 'noted', 'got it', 'understood', 'will do', 'gotcha', 'roger(?: that)?'), /[\s.!]*$/],
  'i',
);

/** "Noted:", "Got it —", "Noted for the novel:". */
const ACKNOWLEDGEMENT_LEAD =
  /^(?:noted|got it|understood|will do|roger|ok(?:ay)?|sure|perfect|great)(?:\s+for\s+[^:,;]{1,40})?\s*[:,;—–-]\s*/i;

/** Does a sentence, as written, open with an acknowledgement ("Noted: …")? Asked before lead-ins are stripped. */
export function opensWithAcknowledgement(sentence: string): boolean {
  return ACKNOWLEDGEMENT_LEAD.test(sentence.trim());
}

/** "Please remember this", "Don't forget that": a request to keep what was just said, not a task of its own. */
const REMEMBER_THIS = pattern([
  anyOf('remember', 'memorize', "don't forget", 'do not forget', 'keep in mind', 'note', 'make a note of', 'write down', 'save'),
  /\s+(?:this|that|it)(?:\s+(?:one|fact|for me|for later|please|too))*/,
]);
const WRITE_THIS_DOWN = /write (?:this|that|it) down(?:\s+as (?:a|an|our|the) [\w -]{1,30})?/;
const THIS_IS_IMPORTANT = /(?:this|that|it)(?: is|'s) (?:really |very |super )?important(?: to (?:me|remember))?/;
const THIS_IS_A_RULE =
  /(?:this|that|it)(?: is|'s) (?:a|an|our|the) (?:[\w-]+ ){0,2}(?:rule|requirement|convention|policy|must)(?: here| for us| for the team| at work)?/;
export const REMEMBER_REQUEST = pattern(
  [/^(?:(?:please|pls|and|also|oh|so)\s*,?\s+)*/, anyOf(REMEMBER_THIS, WRITE_THIS_DOWN, THIS_IS_IMPORTANT, THIS_IS_A_RULE), /[\s.!]*$/],
  'i',
);

/** Reactions to what the other speaker said or showed. */
const REACTION_SUBJECT = pattern([
  anyOf('that', 'this', 'it', 'those', 'these', 'they', 'what a', 'how', 'sounds?', 'looks?', 'seems?', 'must be', 'must have been'),
  /\b(?:'s|'re| is| was| are| were| must| sounds?| looks?| seems?| feels?| means?)?/,
]);
const SO_COOL = /(?:so|such|very|really) (?:cool|nice|great|awesome|sweet|fun|true|exciting|amazing|inspiring|touching|lovely)/;
const CONGRATS = /(?:congrats|congratulations|kudos|well done|good job|great job|way to go|props|wow|aww|oh)\b/;
const REACTION_START = pattern([/^/, anyOf(REACTION_SUBJECT, SO_COOL, CONGRATS)], 'i');

/** First-person reactions: "I'm so happy for you", "I love that", "I can only imagine". */
const HAPPY_FOR_YOU = pattern([
  /^(?:i'm|i am|i was|i feel)\s+(?:so\s+|really\s+|very\s+|super\s+|truly\s+)*/,
  anyOf(
    'happy',
    'glad',
    'proud',
    'excited',
    'sorry',
    'thrilled',
    'stoked',
    'touched',
    'grateful',
    'thankful',
    'impressed',
    'amazed',
    'inspired',
  ),
  /\s+/,
  anyOf('for you', 'to hear', 'to see', 'you', 'that you', 'that (?:it|this|that)', 'about (?:that|this|it)', 'of you'),
]);
const LOVE_THAT = pattern([
  /^i\s+(?:really\s+|totally\s+|just\s+|absolutely\s+)*/,
  anyOf('love', 'like', 'adore', 'admire', 'appreciate', 'agree'),
  /\s+/,
  anyOf('that', 'it', 'this', 'those', 'these', 'how', 'your', 'you', 'what you'),
  /\b/,
]);
const CAN_IMAGINE = /^i can (?:only |totally |definitely )?(?:imagine|see (?:that|why|how))/;
const HOPE_SO = /^i (?:hope|bet|believe) (?:you|it|that|so)\b/;
const KNOW_WHAT_YOU_MEAN = /^i (?:know|see|get|understand) (?:what you mean|how you feel|that|why)\b/;
const KEEP_YOU_POSTED = /^i'll (?:let you know|keep you posted|check it out|do my best)\b/;
const FIRST_PERSON_REACTION = oneOf([HAPPY_FOR_YOU, LOVE_THAT, CAN_IMAGINE, HOPE_SO, KNOW_WHAT_YOU_MEAN, KEEP_YOU_POSTED], 'i');

/** Encouragement and advice to the other person: "Keep it up!", "Hang in there", "Give it a shot". */
const ENCOURAGING_WORDS = anyOf(
  'keep',
  'stay',
  'hang in',
  /don't (?:give up|quit|stop|let|forget to|worry)/,
  /never (?:give up|stop|quit)/,
  'believe',
  'enjoy',
  /have (?:fun|a (?:great|good|nice|blast))/,
  'take care',
  'cherish',
  'go for it',
  /give it a (?:shot|try|go)/,
  /check (?:it|this|that|them) out/,
  'check out',
  /let's (?:keep|make|do|go|stay|continue|work|chat|catch|talk|hope)/,
  'remember to',
  'trust',
  'follow your',
  'chase',
  'reach for',
  'hold on',
  'make sure to',
  'be proud',
  'congrat',
);
const ENCOURAGEMENT = pattern([/^(?:just\s+|so\s+|and\s+)?/, ENCOURAGING_WORDS], 'i');

/** Goodbyes: "See you tomorrow!", "Talk soon", "Take care". */
const SIGN_OFF = pattern(
  [
    /^/,
    anyOf(
      /see (?:you|ya)/,
      /talk (?:to you )?(?:soon|later)/,
      /catch you (?:later|soon)/,
      'bye',
      'good ?night',
      /have a (?:good|great|nice|lovely) (?:one|day|night|evening|weekend)/,
      'take care',
      'until next time',
      'speak soon',
      /gotta (?:go|run)/,
      /i(?:'ve| have)? (?:got|gotta) (?:to )?go/,
    ),
    /\b/,
  ],
  'i',
);

/** Only agreeing: "I 100% agree", "Totally agree" ("Agreed, we'll run both side by side" is a decision). */
const AGREEMENT = pattern(
  [
    /^(?:i\s+)?(?:\d+%|totally|completely|fully|absolutely|so|really)?\s*/,
    /(?:agree|agreed|couldn't agree more)/,
    /(?:\s+with (?:you|that|this|it))?(?:\s+(?:completely|totally|100%))?[\s,.!]*$/,
  ],
  'i',
);

/** A resolve with nothing named: "I'm going to keep pushing forward", "I'll keep plugging away". */
const KEEP_AT_IT =
  /\b(?:will|'ll|going to|gonna|gotta|have to|must)\s+(?:just\s+)?keep\s+(?:on\s+)?(?:going|pushing|at it|trying|plugging|moving|working|doing|fighting|it up|chasing|pursuing)/;
const KEEPING_ON = /^(?:i'm|we're|i am)\s+(?:just\s+)?(?:keeping|gonna keep)\b/;
const WONT_GIVE_UP =
  /\b(?:won't|will not|not (?:going to|gonna)|never going to|never gonna)\s+(?:ever\s+)?(?:give up|quit|stop|let (?:anything|anyone|it|that))\b/;
const KEEP_GOING = oneOf([KEEP_AT_IT, KEEPING_ON, WONT_GIVE_UP, /\bwon't give up\b/], 'i');

/** How the work stands ("tests pass now", "staging migrations fail"): said short, still a fact. */
const WORK_THINGS = [
  'tests?',
  'builds?',
  'deploys?',
  'ci',
  'pipeline',
  'migrations?',
  'server',
  'staging',
  'prod(?:uction)?',
  'branch',
  'release',
  'bug',
  'error',
  'screenshot',
  'log',
];
const WORK_OUTCOMES = ['fails?', 'failing', 'failed', 'pass(?:es|ing|ed)?', 'works', 'worked', 'working', 'broken', 'crash(?:es|ed)?'];
const WORK_STATUS = pattern([/\b/, anyOf(...WORK_THINGS, ...WORK_OUTCOMES), /\b/], 'i');

/** A verdict on what the other speaker said or chose. */
const VERDICT_LEAD = pattern(
  [
    /^(?:(?:that's|that is|what a|such a)\s+)?(?:a\s+)?/,
    anyOf('good', 'great', 'nice', 'smart', 'wise', 'solid', 'excellent', 'sensible', 'sound', 'fair'),
    /\s+/,
    anyOf('call', 'choice', 'idea', 'move', 'pick', 'plan', 'point', 'question', 'decision'),
    /\b/,
  ],
  'i',
);

/** Evaluative words: a sentence of these and nothing specific is a remark, not a memory. */
const EVALUATIVE_WORD = anyOf(
  ...[
    'important',
    'key',
    'vital',
    'essential',
    'invaluable',
    'crucial',
    'tough',
    'hard',
    'great',
    'amazing',
    'awesome',
    'wonderful',
    'good',
    'nice',
    'cool',
  ],
  ...[
    'powerful',
    'healing',
    'inspiring',
    'special',
    'fun',
    'lovely',
    'beautiful',
    'rewarding',
    'worth',
    'amazing',
    'incredible',
    'fantastic',
    'meaningful',
  ],
  ...[
    'helpful',
    'precious',
    'priceless',
    'exciting',
    'interesting',
    'refreshing',
    'therapeutic',
    'peaceful',
    'calming',
    'relaxing',
    'magical',
    'awesome',
  ],
  ...['huge', 'true', 'right'],
);
const EVALUATIVE = pattern(
  [
    /\b/,
    anyOf(
      'is',
      'are',
      'was',
      'were',
      'be',
      'been',
      'so',
      'very',
      'really',
      'such',
      'truly',
      'pretty',
      'super',
      'how',
      'can be',
      "it's",
      "that's",
    ),
    /\s+(?:a\s+|an\s+|so\s+|really\s+|very\s+|super\s+)?/,
    EVALUATIVE_WORD,
    /\b/,
  ],
  'i',
);

/** The subject of a saying about everyone: "Taking risks is scary", "Hard work pays off", "Life's all about…". */
/** Words in -ing that are things, not doings ("morning", "wedding"). */
const ING_NOUNS = [
  'thing',
  'something',
  'everything',
  'spring',
  'king',
  'ring',
  'morning',
  'evening',
  'wedding',
  'meeting',
  'building',
  'ceiling',
  'pudding',
  'string',
  'wing',
  'sibling',
  'darling',
  'during',
  'ping',
  'bring',
];
/** "… is at 5", "… was booked": a plan of the speaker's, not a saying. */
const SCHEDULED = /\s+(?:is|was)\s+(?:at|in|on|scheduled|booked|planned|set|due)\b/;
const GERUND_SUBJECT = pattern(['(?!', anyOf(...ING_NOUNS), '\\b)', /[a-z]{3,}ing\b/, '(?!', SCHEDULED, ')']);
const GENERIC_NOUNS = [
  'life',
  'love',
  'family',
  'friends(?:hip)?',
  'art',
  'music',
  'nature',
  'kindness',
  'hard work',
  'success',
  'happiness',
  'people',
  'kids',
  'everyone',
  'everybody',
];
const GENERIC_OPENINGS = [
  'nothing',
  'anything',
  "it's all",
  "that's what",
  "there's nothing",
  'being',
  'having',
  "it's important",
  /it's (?:so |really )?(?:great|good|nice|important|awesome|amazing|cool|tough|hard)/,
];
const NOUN_SUBJECT = pattern([
  anyOf(...GENERIC_NOUNS, ...GENERIC_OPENINGS),
  /(?:'s)?\b(?!\s+(?:is|was|are|were)\s+(?:at|in|on|scheduled|booked|planned|due)\b)/,
]);
const GENERIC_SUBJECT = pattern([/^/, anyOf(GERUND_SUBJECT, NOUN_SUBJECT)], 'i');

/** A proper noun, number or code-ish token somewhere after the first word. */
function hasSpecific(sentence: string, names: readonly string[]): boolean {
  if (/\d/.test(sentence)) return true;
  // Identifiers, paths, versions: foo.bar, a/b, snake_case, camelCase.
  if (/\b\w+[._/]\w+\b|\b[a-z]+[A-Z]\w*\b/.test(sentence)) return true;
  const words = sentence.split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').replace(/'s$/, '');
    if (w.length < 2 || !/^\p{Lu}/u.test(w)) continue;
    if (w === 'I' || isCommonWord(w) || names.some((n) => n.toLowerCase() === w.toLowerCase())) continue;
    return true;
  }
  return false;
}

/**
 * The assistant acknowledging what it was told ("I'll remember that Lena has a peanut allergy") or
 * saying what it is about to look at ("Let me check the Envoy config."): the user's message is the
 * memory (docs/priorities.md, "none"); written down, the promise was a second, 🔴 copy of the fact.
 */
const WILL_KEEP_IN_MIND = /(?:i'll|i will)\s+(?:remember|keep in mind|note|make a note of|not forget)\b/;
/** "Let me check …", unless it says why ("Let me check, because …" explains). */
const LET_ME_LOOK =
  /let me (?:check|look|see|take a look|have a look|dig|investigate|read|open|run|try)\b(?![^.]*\b(?:because|since|so that)\b)/;
const ASSISTANT_ACKNOWLEDGEMENT = pattern(
  [/^(?:(?:ok(?:ay)?|sure|got it|noted|understood|will do|of course)[\s,.!:-]+)?/, anyOf(WILL_KEEP_IN_MIND, LET_ME_LOOK)],
  'i',
);

/** Emoticons: "<3", ":)", ":-D" (their digits and letters are not content; "83" and "8D" are not emoticons). */
export const EMOTICON = /(?:^|\s)(?:<3+|[:;=][-']?[()DPpO/\\|\][]+|\^_?\^|xD)(?=\s|$|[.!?,])/g;

function judgeEnglish(sentence: string, analysis: SentenceAnalysis, ctx: SelectionContext): DropReason | undefined {
  const s = sentence.replace(EMOTICON, ' ').trim();
  if (!s) return 'acknowledgement';
  if (REMEMBER_REQUEST.test(s)) return 'remember request';
  if (ACKNOWLEDGEMENT.test(s)) return 'acknowledgement';
  if (ctx.role === 'assistant' && ASSISTANT_ACKNOWLEDGEMENT.test(s)) return 'acknowledgement';
  if (contentWords(s, ctx.names).size === 0 && !/\d/.test(s)) return 'acknowledgement';
  const strong = (analysis.category !== 'fact' && analysis.category !== 'event') || analysis.done;
  // "We went camping" is about the speaker; "we all need support" is not.
  const firstPerson =
    FIRST_PERSON.test(s) || IMPLICIT_FIRST_PERSON.test(s) || (FIRST_PERSON_PLURAL.test(s) && (strong || analysis.category === 'event'));
  const secondPerson = SECOND_PERSON.test(s);
  // A name, number or technology; a date alone does not make "Let's make tomorrow unforgettable" a memory.
  const namesSomething = ctx.technical || hasSpecific(s, ctx.names);
  const specific = ctx.dated || namesSomething;
  if (analysis.kind === 'question') {
    // "Did you hear any inspiring stories?" is conversation; "Why does my loop finish early?" is the user's problem.
    if (ctx.role === 'assistant') return 'small-talk question';
    // "Can you set up the CI?" is a request, not small talk.
    if (/^(?:please\s+)?(?:can|could|would|will) you\b/i.test(s) && analysis.contentWords > 0) return undefined;
    if (!firstPerson && (secondPerson || !specific)) return 'small-talk question';
    return undefined;
  }
  // ("See you tomorrow" carries a date, and is still a goodbye.)
  if (SIGN_OFF.test(s) && !ctx.technical && !hasSpecific(s, ctx.names)) return 'acknowledgement';
  // "Agreed, we'll run both side by side for two weeks" agrees and decides: the decision stays.
  if (AGREEMENT.test(s) && analysis.category !== 'decision') return 'reaction';
  if (KEEP_GOING.test(s) && !specific) return 'general';
  if (FIRST_PERSON_REACTION.test(s) && !specific) return 'reaction';
  // "Good call: strict TypeScript catches mistakes early" — a verdict on what the other said, not a fact of its own.
  if (VERDICT_LEAD.test(s) && !/\d/.test(s)) return 'reaction';
  const words = contentWords(s, ctx.names);
  // "Noted for the novel: Mira has grey-green eyes…" — an acknowledgement that says it back.
  const acknowledged = ACKNOWLEDGEMENT_LEAD.exec(s);
  // (The user's "OK, class weights it is." takes up a suggestion: a decision, judged as before.)
  const saidBackWords = acknowledged ? contentWords(s.slice(acknowledged[0].length), ctx.names) : words;
  if (acknowledged && isEcho(saidBackWords, ctx.previousOther)) return 'echo';
  if ((acknowledged || ctx.acknowledged) && ctx.role === 'assistant' && isAcknowledgedEcho(saidBackWords, ctx.previousOther)) return 'echo';
  // Saying back what the other just said ("Noted: Mira has grey-green eyes") — but an answer repeats
  // the question's words, "I made this bowl" is the speaker's own news, and "Let's use X" after
  // "How about X?" is the user's decision.
  if (!ctx.answers && !FIRST_PERSON.test(s) && (ctx.role === 'assistant' || !strong) && isEcho(words, ctx.previousOther)) return 'echo';
  // "Let's keep doing our part for the world!" is cheering, said in the first person plural.
  if (/^let's\b/i.test(s) && analysis.category !== 'decision' && ENCOURAGEMENT.test(s) && !namesSomething) return 'reaction';
  // A saying is no answer either: "Life's about learning and exploring", "Music's amazing".
  if (!FIRST_PERSON.test(s) && !namesSomething && !THIRD_PERSON.test(s) && GENERIC_SUBJECT.test(s) && !WORK_STATUS.test(s))
    return 'general';
  if (firstPerson) {
    if (specific) return undefined;
    // "I'm always here for you", "Your support means a lot to me": about the two of them, not a fact.
    if (secondPerson && !strong && analysis.category !== 'event') return 'reaction';
    // "I'll check it out", "I find it fulfilling": too little to remember on its own.
    if (words.size < 2 && !ctx.answers) return 'general';
    return undefined;
  }
  // "Let's go with the edge n-gram subfield" is the user's decision, not "let's go!" cheering: a decision is never a reaction.
  if (analysis.category !== 'decision' && ((REACTION_START.test(s) && !specific) || (ENCOURAGEMENT.test(s) && !namesSomething)))
    return 'reaction';
  if (secondPerson && !namesSomething) return 'reaction';
  // "She had to leave and find a new place in a hurry": about someone they know.
  if (strong || specific || ctx.answers || THIRD_PERSON.test(s)) return undefined;
  // Nothing personal, nothing named: a remark ("Family support is invaluable", "Hard work pays off eventually").
  // ("Migrations run cleanly on staging now" names nothing either, but says how the work stands: kept.)
  if (WORK_STATUS.test(s)) return analysis.contentWords < 2 ? 'general' : undefined;
  // Said of everyone ("we all", a gerund or a bare abstract noun as the subject) rather than of a thing: "The
  // spare key is under the blue flowerpot" is kept.
  if (EVALUATIVE.test(s) || GENERIC_SUBJECT.test(s) || FIRST_PERSON_PLURAL.test(s) || analysis.contentWords < 4) return 'general';
  return undefined;
}

/**
 * How much a kept sentence says, to choose among the sentences of one message when there are more than an
 * observation holds: a date, a name or number, something that happened or was done, the speaker's own
 * news and content words count; an evaluation that names nothing ("The view from the top was amazing")
 * counts against.
 */
export function sentenceWorth(
  sentence: string,
  analysis: SentenceAnalysis,
  korean: boolean,
  ctx: Pick<SelectionContext, 'names' | 'dated' | 'technical'>,
): number {
  let worth = Math.min(analysis.contentWords, 8) / 4;
  if (ctx.dated) worth += 3;
  if (analysis.category !== 'fact' || analysis.done) worth += 1;
  if (korean) return worth + (/\d|[A-Za-z]{2,}/.test(sentence) ? 2 : 0);
  const specific = ctx.technical || hasSpecific(sentence, ctx.names);
  if (specific) worth += 2;
  if (FIRST_PERSON.test(sentence) || IMPLICIT_FIRST_PERSON.test(sentence)) worth += 1;
  if (!specific && !ctx.dated && EVALUATIVE.test(sentence)) worth -= 2;
  return worth;
}

// ---------------------------------------------------------------------------
// Korean

/** "기억해 둘게요", "알겠습니다", "메모했어요": an acknowledgement, whatever it repeats. */
const KOREAN_ACKNOWLEDGEMENT =
  /(?:기억해\s?둘게요|기억해\s?둘게|기억할게요|기억할게|기억하겠습니다|기억해\s?두겠습니다|메모해\s?둘게요|메모해\s?두겠습니다|메모했어요|메모했습니다|잊지\s?않을게요|알겠습니다|알겠어요|접수했습니다|확인했습니다)[\s.!~]*$/;
/** "꼭 기억해 줘", "잊지 마세요", "이거 중요해요". */
const KOREAN_THIS = /(?:(?:이거|이것|그거|그것|이건|그건|이 ?내용|그 ?내용)[은는을를]?\s*)?(?:꼭\s*|반드시\s*|절대\s*)?/;
const KOREAN_REMEMBER = /기억해\s?(?:줘|주세요|둬|두세요|놔|놓아\s?줘)/;
const KOREAN_DONT_FORGET = /잊지\s?(?:마|말아\s?(?:줘|주세요)|마세요)/;
const KOREAN_A_RULE = /(?:(?:팀|회사|우리|법적)\s?)?(?:규칙|원칙|필수|요건)(?:이에요|예요|입니다|이야|이다)/;
const KOREAN_REMEMBER_REQUEST = pattern([
  /^/,
  KOREAN_THIS,
  anyOf(KOREAN_REMEMBER, KOREAN_DONT_FORGET, '중요해요', '중요해', '중요합니다', KOREAN_A_RULE),
  /[\s.!~]*$/,
]);
/** Reactions: "대단하네요", "멋져요", "좋네요". */
const KOREAN_REACTION =
  /^(?:와+|우와|오+|헐|대박)?\s*(?:정말|진짜|너무|완전|되게)?\s*(?:대단하|멋지|멋있|좋|훌륭하|부럽|재밌|재미있|귀엽|예쁘|멋져|축하)\S*(?:네요|요|다|어요|군요|습니다)?[\s.!~]*$/;

function judgeKorean(sentence: string, analysis: SentenceAnalysis, ctx: SelectionContext): DropReason | undefined {
  const s = sentence.trim();
  if (KOREAN_REMEMBER_REQUEST.test(s)) return 'remember request';
  if (KOREAN_ACKNOWLEDGEMENT.test(s) && ctx.role === 'assistant') return 'acknowledgement';
  if (KOREAN_REACTION.test(s)) return 'reaction';
  if (analysis.kind === 'question' && ctx.role === 'assistant') return 'small-talk question';
  if (isEcho(contentWords(s, ctx.names), ctx.previousOther)) return 'echo';
  return undefined;
}

// ---------------------------------------------------------------------------

/** Why `sentence` (as written, vocatives removed) is not worth an observation, or undefined. */
export function dropReason(sentence: string, analysis: SentenceAnalysis, korean: boolean, ctx: SelectionContext): DropReason | undefined {
  return korean ? judgeKorean(sentence, analysis, ctx) : judgeEnglish(sentence, analysis, ctx);
}

/**
 * The words a sentence is compared by: lowercase English content words (not
 * common words, not the speakers' names), numbers, and for Hangul the
 * two-syllable pieces of each word (particles and endings differ between a
 * statement and its echo: "마감은" / "마감,").
 */
export function contentWords(text: string, names: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  const lowerNames = names.map((n) => n.toLowerCase());
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}'+#.-]+/u)) {
    const w = raw.replace(/^['.-]+|['.-]+$/g, '').replace(/'s$/, '');
    if (!w) continue;
    if (/[\uAC00-\uD7A3]/.test(w)) {
      const syllables = w.replace(/[^\uAC00-\uD7A3\d]/g, '');
      for (let i = 0; i + 1 < syllables.length; i++) out.add(syllables.slice(i, i + 2));
      continue;
    }
    if (/^\d+$/.test(w)) {
      out.add(w);
      continue;
    }
    if (w.length < 3 || isCommonWord(w) || lowerNames.includes(w)) continue;
    out.add(stem(w));
  }
  return out;
}

/** Plural and verb endings off, so "paintings" echoes "painting". */
function stem(w: string): string {
  return w.length > 4 ? w.replace(/(?:ies|es|s|ed|ing)$/, '') : w;
}

/**
 * An echo says back what the other speaker just said: most of its content
 * words are theirs, and it adds at most one of its own.
 */
export function isEcho(words: ReadonlySet<string>, previousOther: ReadonlySet<string>): boolean {
  if (words.size === 0 || previousOther.size === 0) return false;
  let shared = 0;
  for (const w of words) if (previousOther.has(w)) shared++;
  const added = words.size - shared;
  return shared >= 1 && added <= 1 && shared * 3 >= words.size * 2;
}

/**
 * After an acknowledgement ("Noted: PostgreSQL 16 for the ledger tables, Redis for the cache…")
 * the speaker has marked the sentence as said back, so half of its words in the other's message
 * is enough; a detail it adds ("16") does not make it news.
 */
export function isAcknowledgedEcho(words: ReadonlySet<string>, previousOther: ReadonlySet<string>): boolean {
  if (isEcho(words, previousOther)) return true;
  let shared = 0;
  for (const w of words) if (previousOther.has(w)) shared++;
  return shared >= 2 && shared * 2 >= words.size;
}

// ---------------------------------------------------------------------------
// Condensing

/** Interjections that may come before a name: "Hey Caroline,", "Thanks, Mel!". */
const INTERJECTIONS = [
  'hey',
  'hi',
  'hello',
  'oh',
  'wow',
  'woah',
  'whoa',
  'yeah',
  'yes',
  'yep',
  'yup',
  'thanks',
  'thank you',
  'aw+',
  'ha+',
  'dear',
  'sure',
  'agreed?',
  'congrats',
];
const INTERJECTIONS_MORE = [
  'so',
  'ok(?:ay)?',
  'haha',
  'lol',
  'see you(?: later| soon)?',
  'bye',
  'totally',
  'cool',
  'nice',
  'great',
  'awesome',
];
const LEADING_INTERJECTION = pattern([/^/, anyOf(...INTERJECTIONS, ...INTERJECTIONS_MORE), /\s*,?\s+(?=[A-Z][a-z]+\s*[,.!?])/], 'i');
const LEADING_NAME = /^[A-Z][a-z]+\s*(?:[,!]+\s*(?=\S)|[,.!?]*\s*$)/;
/** A name at the end: "That's great, Mel!". */
const TRAILING_NAME = /,\s*[A-Z][a-z]+\s*([.!?]*)\s*$/;

/**
 * Vocatives of names the Observer was not told: "Hey Caroline, …", "…, Mel!" — a
 * capitalised word that is not a common word, at the start (after an
 * interjection) or end of the sentence, set off by a comma.
 */
export function stripVocatives(sentence: string): string {
  let s = sentence;
  const interjection = LEADING_INTERJECTION.exec(s);
  const rest = interjection ? s.slice(interjection[0].length) : s;
  const lead = LEADING_NAME.exec(rest);
  if (lead && !isCommonWord(lead[0].replace(/[^A-Za-z]/g, ''))) s = rest.slice(lead[0].length);
  const trail = TRAILING_NAME.exec(s);
  if (trail && !isCommonWord(trail[0].replace(/[^A-Za-z]/g, ''))) s = s.slice(0, trail.index) + trail[1];
  return s;
}

/** Intensifiers and hedges that add nothing to a memory. */
const INTENSIFIER =
  /\b(?:really|super|totally|truly|literally|honestly|basically|absolutely|definitely|actually|seriously|genuinely)\s+(?=[A-Za-z])/gi;
/** "so"/"pretty"/"very" before an evaluative word ("so powerful" → "powerful"). */
const DEGREE_WORDS = [
  'much',
  'many',
  'happy',
  'glad',
  'proud',
  'excited',
  'grateful',
  'thankful',
  'powerful',
  'inspiring',
  'important',
  'special',
  'good',
  'great',
  'fun',
];
const DEGREE_WORDS_MORE = [
  'hard',
  'tough',
  'nice',
  'cool',
  'amazing',
  'awesome',
  'beautiful',
  'busy',
  'tired',
  'stressed',
  'worried',
  'nervous',
  'relieved',
  'keen',
];
const DEGREE_WORDS_LAST = [
  'passionate',
  'helpful',
  'supportive',
  'lucky',
  'blessed',
  'close',
  'exciting',
  'interesting',
  'rewarding',
  'challenging',
  'difficult',
];
const DEGREE = pattern(
  [/\b(?:so|pretty|very|quite|extremely|incredibly)\s+/, '(?=', anyOf(...DEGREE_WORDS, ...DEGREE_WORDS_MORE, ...DEGREE_WORDS_LAST), '\\b)'],
  'gi',
);
/** A closing evaluation: ", which is pretty exciting", "and it was so powerful", " – it was a nice time together". */
/** ", which", " and it", " – that": how a closing evaluation is joined on. */
const EVALUATION_JOIN = /(?:,\s*|\s+(?:and|-|–|—)\s+|\s*[–—]\s*)(?:which|it|that|this)\s+/;
const EVALUATION_VERB = /(?:is|was|'s|has been|will be|felt|feels|looks|looked|sounds|sounded)\s+/;
const EVALUATION_DEGREE = /(?:so\s+|pretty\s+|really\s+|super\s+|very\s+|such\s+|truly\s+)?(?:a\s+|an\s+)?(?:(?:really|very|super|so)\s+)?/;
const CLOSING_WORDS = [
  'exciting',
  'awesome',
  'amazing',
  'great',
  'cool',
  'fun',
  'powerful',
  'special',
  'nice',
  'wonderful',
  'fantastic',
  'incredible',
  'inspiring',
  'lovely',
];
const CLOSING_WORDS_MORE = [
  'beautiful',
  'rewarding',
  'enlightening',
  'thought-provoking',
  'eye-opening',
  'blast',
  'stunning',
  'magical',
  'gorgeous',
  'unforgettable',
];
const CLOSING_WORDS_LAST = [
  'memorable',
  'surreal',
  'emotional',
  'meaningful',
  'moving',
  'touching',
  'intense',
  'fulfilling',
  'satisfying',
  'relaxing',
  'peaceful',
  'calming',
];
const EVALUATION_TAIL = /(?:\s+(?:experience|time|day|feeling|moment|one))?(?:\s+(?:together|to me|for me|for us))?(?=[.!]*$)/;
const TRAILING_EVALUATION = pattern(
  [
    EVALUATION_JOIN,
    EVALUATION_VERB,
    EVALUATION_DEGREE,
    anyOf(...CLOSING_WORDS, ...CLOSING_WORDS_MORE, ...CLOSING_WORDS_LAST),
    EVALUATION_TAIL,
  ],
  'i',
);
/** Words that only lead into a sentence: "Yeah,", "Well,", "Actually,", "Since we last chatted,", "And", "Plus". */
const DISCOURSE_WORDS = [
  'yeah',
  'yep',
  'yes',
  'well',
  'actually',
  'anyway',
  'anyways',
  'honestly',
  'to be honest',
  'oh',
  'plus',
  'and',
  'but',
  'so',
  'lol',
  'haha',
  'hehe',
];
const SINCE_WE_LAST = /since (?:we|i) last (?:spoke|talked|chatted|caught up|saw each other)/;
const DISCOURSE_LEAD = pattern(['^(?:', anyOf(...DISCOURSE_WORDS, SINCE_WE_LAST), /\b[,!]?\s+/, ')+', /(?=\S)/], 'i');
/** Lead-ins that announce rather than say: "New topic:", "Switching hats:", "Quick update:". */
const LEAD_IN = pattern(
  [
    /^/,
    anyOf(
      ...[
        'new topic',
        'another topic',
        'switching (?:hats|topics|gears)',
        'change of topic',
        'unrelated',
        'separately',
        'another thing',
        'one more thing',
      ],
      ...['quick (?:update|note|question)', 'update', 'side note', 'fyi', 'btw', 'by the way', 'also'],
    ),
    /\s*[:,;-]\s*/,
  ],
  'i',
);
/** A repeated short word: "the the", "to to". */
const DOUBLED_WORD = /\b(the|a|an|to|of|and|in|on|for|is|it|that|with)\s+\1\b/gi;
/** "[image: a photo of a dog]" → "[image: a dog]". */
const CAPTION_LEAD =
  /\[(image|photo|picture):\s*(?:a |an )?(?:photo|photograph|photography|picture|image|close up|closeup|screenshot)\s+of\s+/gi;

/** A sentence said shorter: intensifiers, closing evaluations and announcing lead-ins removed; doubled words once. */
export function condenseEnglish(sentence: string): string {
  const led = LEAD_IN.test(sentence) || DISCOURSE_LEAD.test(sentence);
  let s = sentence.replace(LEAD_IN, '').replace(DISCOURSE_LEAD, '');
  s = s.replace(DOUBLED_WORD, '$1').replace(EMOTICON, ' ');
  s = s.replace(INTENSIFIER, '').replace(DEGREE, '');
  s = s.replace(TRAILING_EVALUATION, '');
  s = s.replace(CAPTION_LEAD, '[$1: ');
  s = s.replace(/\s{2,}/g, ' ').trim();
  // A sentence that lost its lead-in starts with a capital; any other keeps its first letter as written.
  return led && s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** Korean lead-ins that only announce a topic ("새 주제:", "참고로,"). */
const KOREAN_LEAD_IN =
  /^(?:(?:ㅇㅇ|ㅇㅋ|ㅋ+|ㅎ+|아|오|음|어|응|와)[\s,.!~]+)*(?:(?:새 ?주제|다른 ?얘기|다른 ?이야기|참고로|그리고|근데|그런데|그래서|아 참)\s*[:,]?\s+)?/;
/** Laughter and tears written as letters ("ㅋㅋ", "ㅠㅠ"): the tone of a chat, not its content. */
const KOREAN_LAUGHTER = /(?<![\p{L}\p{N}])(?:ㅋ|ㅎ|ㅠ|ㅜ){2,}(?![\p{L}\p{N}])/gu;
/** Laughter, tears and emoji standing as words of their own ("ㅋㅋ", "ㅠ", "👍"): how a chat sounds, not what it says. */
const KOREAN_CHAT_MARK = /(?<![\p{L}\p{N}])(?:[ㅋㅎㅠㅜ]+|(?:\p{Extended_Pictographic}\uFE0F?)+)(?![\p{L}\p{N}])/gu;

/**
 * A Korean sentence without its chat marks, as it is judged and restated: "부럽다 ㅋㅋ" is the reaction
 * "부럽다", "ㅋㅋ 배포 끝났어 🎉" says "배포 끝났어".
 */
export function withoutKoreanChatMarks(sentence: string): string {
  if (!/[ㅋㅎㅠㅜ]|\p{Extended_Pictographic}/u.test(sentence)) return sentence;
  return sentence
    .replace(KOREAN_CHAT_MARK, ' ')
    .replace(/\s+([.!?~,])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** Korean intensifiers ("너무 헷갈려요" → "헷갈려요"), a word of their own before another. */
const KOREAN_INTENSIFIER = /(?<![\p{L}\p{N}])(?:너무|정말|진짜|완전|되게|엄청|아주|매우)\s+(?=[\p{L}\p{N}])/gu;

/** A Korean sentence said shorter, as a note: lead-ins and intensifiers off, in the plain style (korean-style.ts). */
export function condenseKorean(sentence: string): string {
  return plainKorean(
    sentence
      .replace(KOREAN_LEAD_IN, '')
      .replace(KOREAN_LAUGHTER, ' ')
      .replace(KOREAN_INTENSIFIER, '')
      .replace(/\s{2,}/g, ' ')
      .trim(),
  );
}
