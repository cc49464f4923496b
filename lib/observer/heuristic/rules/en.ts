/**
 * English rules of the heuristic Observer: the patterns of the shared rule
 * cascade (cascade.ts) for English — is a sentence filler, a question or a
 * statement; which category and priority it has — and how to restate it in
 * the third person ("I prefer X" → "User prefers X"). Pure functions.
 *
 * Size: mostly data — the English word lists and patterns of the rule cascade, with the few functions that
 * restate a sentence; it is the English half of one table (rules/ko.ts is the Korean half), read as a whole.
 */
import { anyOf, oneOf, pattern } from '../../../core/pattern.js';
import { analyse, type AnalysisContext, type Language, type Pattern, type SentenceAnalysis } from './cascade.js';

export type { AnalysisContext, SentenceAnalysis } from './cascade.js';

const STOP = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself
his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of
off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some
such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've this
those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself
yourselves will just now get got gets getting go going gone went really much many lot lots thing things stuff something
anything everything nothing one ones way kind sort bit still even ever yet already again maybe perhaps probably though
although however anyway anyways actually basically literally definitely totally absolutely certainly indeed pretty quite
rather somewhat kinda sorta gonna wanna gotta ya yeah yes yep yup nope nah ok okay alright hey hi hello hiya heya howdy
yo bye goodbye cya later soon thanks thank thx ty tysm welcome please sorry oh ooh ah aw aww wow whoa woah hmm um uh er
lol haha hahaha hehe lmao omg btw tbh imo idk lmk well like know think mean because since switching keep guess see say said tell told hear heard make
made take took come came look looks looked looking seem seems seemed sound sounds sounded feel feels felt feeling`.split(/\s+/),
);

/** Evaluative words that make a sentence chit-chat when nothing else is said. */
const FILLER = new Set(
  `great cool nice good glad happy fantastic wonderful lovely sweet awesome amazing incredible
impressive brilliant perfect excellent super beautiful gorgeous neat fun funny interesting exciting excited fab fabulous
terrific outstanding stunning adorable cute wild crazy insane epic legendary sick dope rad proud congrats congratulations
best true right exactly agree agreed absolutely sure course problem worries care luck wish wishes hope hoping love loved
lovin loving like liked appreciate appreciated appreciation grateful thankful means meant inspiring inspired inspiration
touching heartwarming special blast awesome amazing totally completely truly super so soo sooo such real wonderful day
night morning evening chat talk talking catch catching share sharing hear hearing glad keep up work going awesome job
same too also here there back yours mine choice idea question point noted understood gotcha roger help assist else today prob probs`.split(
    /\s+/,
  ),
);

/** Whole-sentence chit-chat patterns (after vocatives and punctuation are removed). */
const FILLER_PHRASES = [
  /^(?:(?:hi|hey|hello|hiya|heya|howdy|yo|good (?:morning|afternoon|evening|night)|morning|evening)\b.*)$/,
  pattern([
    /^/,
    anyOf(
      'how (?:are|have) you(?: been| doing)?',
      "how's it going",
      'how are things',
      "what's up",
      'whats up',
      'sup',
      "what's new",
      'anything new',
      'how was your (?:day|weekend|week)',
    ),
    /$/,
  ]),
  pattern([
    /^/,
    anyOf('thanks?(?: you)?', 'thank you so much', 'many thanks', 'cheers', 'ty', 'thx'),
    /(?: (?:so|very) much)?/,
    '(?: for ',
    anyOf(
      'sharing',
      'asking',
      'the (?:help|support|chat|advice|tip|info|kind words)',
      'your (?:help|support|kind words)',
      'everything',
      'that',
    ),
    ')?',
    /$/,
  ]),
  /^(?:you're welcome|no problem|no worries|my pleasure|any ?time|of course|sure thing|sure|np)$/,
  pattern([
    /^/,
    anyOf(
      'talk (?:to you )?(?:soon|later)',
      'see you(?: soon| later| around| tomorrow| next week| on monday| then)?',
      'take care',
      'bye(?: for now)?',
      'catch you later',
      'have a (?:good|great|nice|lovely|wonderful) (?:day|one|night|evening|weekend|time)',
      'good night',
      'night',
    ),
    /$/,
  ]),
  pattern([
    /^/,
    anyOf(
      ...['me too', 'same here', 'you too', 'same', 'likewise', 'agreed', 'i agree', 'totally agree', 'exactly', 'absolutely'],
      ...['definitely', 'for sure', 'indeed', 'true', 'right', 'yes', 'no', 'ok', 'okay', 'got it', 'sounds good', 'sounds great'],
      ...['sounds like a plan', 'makes sense', 'fair enough', 'i see', 'cool', 'nice', 'great', 'awesome', 'wow', 'lol', 'haha'],
    ),
    /$/,
  ]),
  /^(?:let me know|just let me know|feel free to ask|hope (?:this|that) helps|happy to help|glad (?:i could|to) help)\b.*$/,
  pattern([
    /^/,
    anyOf(
      'keep (?:it )?up the (?:good|great|amazing|awesome) work',
      'good luck(?: with .*)?',
      'best of luck(?: with .*)?',
      'you (?:got|can do) this',
      'proud of you',
      "i'm (?:so )?(?:happy|glad|proud) for you",
    ),
    /$/,
  ]),
];

/** Closing offers that carry nothing to remember, however long ("Let me know if you also want a release job"). */
const SIGN_OFF = pattern(
  [
    /^(?:just\s+)?/,
    anyOf(
      'let me know',
      'feel free to (?:ask|reach out|ping)',
      'hope (?:this|that|it) helps',
      'happy to help',
      'glad (?:i could|to) help',
      'any (?:other )?questions',
    ),
    /\b/,
  ],
  'i',
);

// ---------------------------------------------------------------------------
// Patterns and their word gates: most sentences contain none of the words a
// pattern is built from, and one pass over the sentence's words (needed anyway
// to count content words) tells which patterns can match at all; only those
// regexes run. The gates are derived from PATTERNS below (one bit each).

/** A pattern regex with the words it cannot match without. */
interface GatedPattern {
  re: RegExp;
  /**
   * `re` without its i flag, for the lowercased sentence (SentenceWords.lower): the same
   * answer, and several times cheaper to compile (and ~15 % faster to run) than case-folding.
   */
  lower: RegExp;
  words: string[];
}

/**
 * A pattern with the words it cannot match without. `words` must hold, for every
 * match of every alternative of `re`, a word that occurs in the match as a whole
 * run of ASCII letters and digits: bounded on both sides by a non-word character
 * (space, ', -, …) or an end of the sentence, as a literal between \b's or \s's is.
 * A word glued to its neighbour (where the regex allows `\s*` or nothing between
 * two literals) is part of a longer run: list the glued forms too (see glue()).
 * The regex stays the definition of the pattern; the gate only proves that it cannot
 * match. test/observer/heuristic/observer-rules-en.test.ts checks the gates on many sentences.
 * `re` is case-insensitive and written in lowercase ASCII (see GatedPattern.lower).
 */
function gated(re: RegExp, words: string): GatedPattern {
  // (No capital outside an escape, and no escape by code: `\x41` is an "A" whatever its case.)
  if (!re.flags.includes('i') || /\\[xuc]|[^\x00-\x7f]/.test(re.source) || /[A-Z]/.test(re.source.replace(/\\./g, '')))
    throw new Error(`gated(): not a lowercase case-insensitive rule: ${re}`);
  return { re, lower: new RegExp(re.source, re.flags.replace('i', '')), words: words.trim().split(/\s+/) };
}

/** Every head word directly followed by every tail word ("i" + "need" → "ineed"). */
function glue(heads: string, tails: string): string {
  const t = tails.trim().split(/\s+/);
  return heads
    .trim()
    .split(/\s+/)
    .flatMap((h) => t.map((w) => h + w))
    .join(' ');
}

/** "really ", "strongly ", …: adverbs between "I" and a liking verb. */
const LIKING_ADVERB = anyOf(
  ...[
    ...['really', 'much', 'strongly', 'generally', 'always', 'definitely', 'totally', 'absolutely', 'do', 'still', 'just'],
    ...['kinda', 'also', 'especially', 'personally'],
  ].map((word) => String.raw`${word}\s+`),
);
const LIKING_VERB = anyOf('prefer', 'like', 'love', 'enjoy', 'hate', 'dislike', 'detest', 'adore', 'loathe', "can't stand", 'cannot stand');
/** "remember: ", "from now on, ": a lead-in before a standing rule. */
const RULE_LEAD_IN = String.raw`^(?:(?:remember|note|rule|important|fyi|reminder|from now on)\s*[:,-]?\s*)?(?:please\s+)?`;
/** One word or token of a short rule ("SQLAlchemy", "C++", "v2.1"). */
const RULE_WORD = String.raw`[\w.+#/()'-]+`;

const PREFERENCE = gated(
  new RegExp(
    [
      pattern([/\b(?:i|we)\s+/, LIKING_ADVERB, '*', LIKING_VERB, /\b/]).source,
      String.raw`\bprefer(?:s|red|ence)?\b[^.]*\b(?:over|to|instead of|rather than)\b`,
      String.raw`\b(?:my|our) (?:favou?rite|preference|preferred|go-to)\b`,
      pattern([
        /\b(?:i'm|i am|we're|we are) /,
        anyOf(
          ...['a (?:big |huge )?fan of', 'not a (?:big )?fan of', 'into', 'really into', 'keen on', 'passionate about'],
          ...['obsessed with', 'allergic to', 'vegetarian', 'vegan'],
        ),
        /\b/,
      ]).source,
      String.raw`\b(?:i|we) (?:always|never) (?:use|write|do|run|want|eat|drink|buy)\b`,
      pattern([RULE_LEAD_IN, /(?:always|never)\s+(?!(?:here|there|been|be|a|an|the|so|too|fun|good|great|nice)\b)[a-z]+/]).source,
      pattern([
        RULE_LEAD_IN,
        /(?:don't|do not) (?:ever\s+)?/,
        anyOf(
          ...['use', 'suggest', 'write', 'give me', 'call me', 'add', 'put', 'commit', 'push', 'deploy', 'run', 'touch'],
          'change',
          'delete',
        ),
        /\b/,
      ]).source,
      String.raw`\b(?:from now on|going forward)\b`,
      String.raw`\bplease (?:always|never)\s+[a-z]+`,
      pattern([
        /[,;]\s*(?:and\s+)?never\s+/,
        anyOf(
          ...['by', 'on', 'in', 'outside', 'inside', 'with', 'without', 'before', 'after', 'from', 'to', 'into'],
          ...['use', 'run', 'push', 'deploy', 'commit', 'touch', 'change', 'delete'],
        ),
        /\b/,
      ]).source,
      String.raw`\bi'd (?:rather|prefer)\b`,
      String.raw`\bi (?:would|'d) like (?:you )?to (?:always|never)\b`,
      // A working rule said without a verb: "SQLAlchemy Core only", "Only decaf after lunch", "No ORM models, no Session".
      pattern([
        /^(?:(?:one thing|also|and|oh|rule|note|important|fyi)\s*[^\w\s]{0,2}\s*)?(?:please\s+)?/,
        /(?!(?:it|that|this|there|he|she|they|we|i|you|is|was|not)\b)/,
        `(?:${RULE_WORD}\\s+){0,4}${RULE_WORD}`,
        /\s+only(?:\s*,\s*please|\s+please)?[.!]*$/,
      ]).source,
      pattern([
        /^(?:please\s+)?only\s+/,
        /(?!(?:if|when|because|once|then|the|a|an|one|two|three|\d+|just|about|after all|half)\b)/,
        /[\w.+#/-]+/,
        `(?:\\s+${RULE_WORD}){0,5}`,
        /(?:\s*,\s*please|\s+please)?[.!]*$/,
      ]).source,
      pattern([/^(?:please\s+)?no\s+/, RULE_WORD, `(?:\\s+${RULE_WORD}){0,3}`, /\s*,\s*(?:and\s+)?no\s+/, RULE_WORD]).source,
    ].join('|'),
    'i',
  ),
  // "Remember: always…" may come with nothing between the words ("rememberalways"); "from now on always…" has "now".
  `prefer prefers preferred preference like love enjoy hate dislike detest adore loathe can cannot favorite favourite go
    fan into keen passionate obsessed allergic vegetarian vegan always never use suggest write give call add put commit push deploy
    run touch change delete now rather forward only no ${glue('remember note rule important fyi reminder', 'always never')}`,
);

const DECISION = gated(
  new RegExp(
    [
      String.raw`\b(?:decided|decide to|decision (?:is|was)|made (?:a|the) (?:decision|call)|final decision)\b`,
      String.raw`\b(?:we|i)(?:'ll| will| are going to|'re going to| shall) (?:use|go with|stick with|pick|adopt|switch to|build (?:it )?(?:on|with))\b`,
      String.raw`\blet's (?:go with|use|stick with|pick|choose|adopt|switch to)\b`,
      // "let's go back to weasyprint", "we'll switch back to Heroku": a reverting choice is a decision too.
      // Not a hope: "maybe I'll go back to acting someday".
      String.raw`(?<!\b(?:maybe|perhaps|possibly|probably)\s+)\b(?:let's|lets|let us|we'll|we will|i'll|i will|we're going to|we are going to)\s+(?:just\s+)?(?:go|switch|move|revert|roll)\s+back\s+to\b(?![^.]*\b(?:someday|some day|one day|eventually)\b)`,
      String.raw`\b(?:we're|we are|i'm|i am) going with\b`,
      String.raw`\b(?:chose|chosen|settled on|opted for|agreed (?:to|on)|sticking with|going forward we)\b`,
      // "Agreed, we'll run both side by side for two weeks": agreeing to what was proposed, said as what we will do.
      String.raw`^(?:ok(?:ay)?[,\s]+)?(?:agreed|deal|sounds good|fine|alright)[,.!\s]+(?:then[,\s]+)?(?:we|i)(?:'ll| will)\s+[a-z]+`,
      String.raw`\bthe plan is\b`,
      String.raw`^(?:(?:ok(?:ay)?|fine|alright|right|so|then)[,\s]+)?(?:[\w.+#-]+\s+){1,4}it is[.!]*$`,
      String.raw`\b(?:will be|is going to be|is|as) (?:the|our) (?:main|primary|default|single source of truth)\b`,
    ].join('|'),
    'i',
  ),
  `decided decide decision made use go stick pick adopt switch build choose going chose chosen settled opted agreed sticking
    plan main primary default single is we i back`,
);

const STATE = gated(
  new RegExp(
    [
      pattern([
        /\b/,
        anyOf(
          ...['switched', 'switching', 'moved', 'moving', 'migrated', 'migrating', 'upgraded', 'downgraded', 'converted'],
          'transitioned',
          'changed',
          'ported',
        ),
        /\b(?:\s+\S+){0,4}?\s+(?:from|to|over to|back to)\b/,
      ]).source,
      pattern([
        /\b/,
        anyOf(
          ...['now using', 'now use', 'now uses', 'now on', 'no longer', 'not anymore', 'anymore', 'started using', 'stopped using'],
          ...['replaced', 'is now', 'are now', 'am now', "i'm now", "we're now", 'has become', 'have become', 'became', 'used to'],
        ),
        /\b/,
      ]).source,
    ].join('|'),
    'i',
  ),
  `switched switching moved moving migrated migrating upgraded downgraded converted transitioned changed ported now longer
    anymore started stopped replaced become became used`,
);

const DONE = gated(
  new RegExp(
    [
      pattern([
        /\b(?:i|we|it|that|this|everything|they|he|she)\s+(?:have\s+|has\s+|'ve\s+|'s\s+)?(?:just\s+|finally\s+|now\s+|already\s+)?/,
        anyOf(
          ...['finished', 'completed', 'fixed', 'resolved', 'shipped', 'deployed', 'merged', 'released', 'solved', 'submitted'],
          'wrapped up',
          'closed',
        ),
        /\b/,
      ]).source,
      String.raw`\b(?:is|are|'s|was|were)\s+(?:now\s+|all\s+|finally\s+)?(?:done|finished|complete|completed|fixed|resolved|merged|deployed|shipped|live)\b`,
      String.raw`\b(?:works now|now works|got it working|it works|all tests pass(?:ing|ed)?|tests (?:are )?(?:now )?passing|done with)\b`,
      String.raw`^(?:done|fixed|finished|merged|shipped|deployed|completed|resolved)\b`,
    ].join('|'),
    'i',
  ),
  `finished completed fixed resolved shipped deployed merged released solved submitted wrapped closed done complete live works
    working tests`,
);

/**
 * Work-ish objects: a completion about these is a finished task (✅); so is one that names its thing first,
 * without an article ("physio is done!", "passports are done").
 */
const TASK_OBJECT = oneOf(
  [
    /^(?:(?:also|and|so|ok|okay|btw)\s+)?[a-z][\w-]+\s+(?:is|are)\s+(?:all\s+)?(?:done|finished|complete)\b/,
    pattern([
      /\b/,
      anyOf(
        ...['slides', 'presentation', 'prep', 'preparation', 'upgrade', 'install(?:ation)?', 'bug', 'bugs', 'issue', 'feature'],
        ...['task', 'ticket', 'pr', 'pull request', 'migration', 'tests?', 'build', 'deploy(?:ment)?', 'release', 'refactor', 'fix'],
        ...['it', 'that', 'this', 'chapter', 'draft', 'report', 'homework', 'assignment', 'project', 'code', 'endpoint', 'api'],
        ...['setup', 'script', 'job', 'module', 'service', 'function', 'page', 'docs?', 'document', 'review', String.raw`the \w+`],
      ),
      /\b/,
    ]),
  ],
  'i',
);

/** Who the speaker is: name, work, home, family. Durable facts worth keeping at high priority. */
const PROFILE = gated(
  new RegExp(
    [
      pattern([
        /\b/,
        anyOf(
          ...['my name is', 'call me', 'i work (?:at|for|as|in|from)', "i'm working (?:at|for)", 'i live in', "i'm from", 'i am from'],
          ...["i'm based in", 'i was born', 'i grew up in'],
        ),
        /\b/,
      ]).source,
      pattern([
        /\bi'm (?:a|an) /,
        anyOf(
          ...['software', 'senior', 'junior', 'lead', 'staff', 'data', 'backend', 'frontend', 'full-?stack', 'student', 'teacher'],
          ...['nurse', 'doctor', 'designer', 'engineer', 'developer', 'writer', 'manager'],
        ),
        /\b/,
      ]).source,
      // "I'm Priya, a data engineer at Harbor": a role at a place.
      pattern([
        /\b(?:a|an) (?:[a-z-]+ )?/,
        anyOf(
          ...['engineer', 'developer', 'designer', 'scientist', 'analyst', 'manager', 'nurse', 'teacher', 'doctor', 'student'],
          ...['writer', 'researcher', 'architect', 'consultant', 'lawyer', 'accountant'],
        ),
        / (?:at|for|in|with)\b/,
      ]).source,
      // "I lead the payments team", "I'm the only reviewer for the payments module".
      String.raw`\bi (?:lead|manage|head|run|own|maintain) (?:the|a|our|an)\b`,
      String.raw`\b(?:i'm|i am) the (?:only |main |lead |sole |tech )?(?:reviewer|maintainer|owner|lead|manager|admin|contact|author|founder)\b`,
      // The projects the speaker owns: "a side project called ledger-api".
      pattern([
        /\b(?:my|our|a|an) (?:own |new |small |little )?(?:side |pet |hobby |open-source |open source )?/,
        anyOf(...['project', 'startup', 'company', 'business', 'app', 'library', 'band', 'podcast', 'blog', 'shop', 'newsletter']),
        / (?:called|named)\b/,
      ]).source,
      // "I'm Tomás, the tech lead of the search team at Lumen."
      pattern([
        /\bthe (?:tech |team |engineering |product |design )?/,
        anyOf('lead', 'manager', 'head', 'director', 'owner', 'founder', 'cto', 'ceo'),
        / of the [a-z -]+ (?:at|in|for)\b/,
      ]).source,
      // Moving home: where the speaker lives changes.
      String.raw`\b(?:i|we)(?:'re|'m| am| are| just| have|'ve)? (?:moving|moved|relocating|relocated) (?:back )?to\b`,
      // Health the agent should always know.
      String.raw`\b(?:i'm|i am) (?:colou?rblind|diabetic|deaf|blind|dyslexic|pregnant|allergic to)\b|\ballerg(?:y|ies)\b`,
      // "My daughter Lena has…", "my sister's a doctor" (not "my sister's wedding": that is about the wedding).
      pattern([
        /\bmy /,
        anyOf(
          ...['wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'son', 'daughter', 'kids?', 'children', 'mom', 'mother', 'dad'],
          ...['father', 'brother', 'sister', 'birthday', 'job', 'company', 'boss', 'manager', 'team'],
        ),
        /(?: [a-z]+)? (?:is|are|was|just|has|have|named|called)\b/,
      ]).source,
      pattern([
        /\bmy /,
        anyOf(
          ...['wife', 'husband', 'partner', 'girlfriend', 'boyfriend', 'son', 'daughter', 'mom', 'mother', 'dad', 'father', 'brother'],
          ...['sister', 'boss', 'manager'],
        ),
        /'s (?:a|an|the|name|birthday)\b/,
      ]).source,
    ].join('|'),
    'i',
  ),
  `i we my our call a an allergy allergies the`,
);

const STRUGGLE = gated(
  pattern(
    [
      /\b/,
      anyOf(
        'struggl(?:e|es|ed|ing)',
        'confused',
        'confus(?:ing|es) (?:me|us)',
        "don't (?:really )?(?:get|understand)",
        'do not understand',
        "can't (?:figure out|understand|wrap my head)",
        'cannot (?:figure out|understand)',
        'having (?:a hard time|trouble|difficulty|problems?)',
        'stuck (?:on|with)',
        'lost (?:with|on)',
        "doesn't make sense",
        'makes no sense',
        'hard (?:time )?(?:to understand|grasping)',
        'wrap my head around',
      ),
      /\b/,
    ],
    'i',
  ),
  `struggle struggles struggled struggling confused confusing confuses get understand figure wrap cannot having stuck lost
    sense hard`,
);

const DEADLINE_WORD = gated(
  /\b(?:deadline|due|demo|launch|release|ship|submit|submission|present|presentation|exam|test|meeting|interview|appointment|review|standup|call)\b/i,
  `deadline due demo launch release ship submit submission present presentation exam test meeting interview appointment
    review standup call`,
);
const DEADLINE = gated(/\bdeadline\b/i, 'deadline');
const BY_DATE = gated(
  pattern(
    [
      /\b(?:by|before|until|till|due(?:\s+on)?|no later than)\s+(?:the\s+)?/,
      anyOf(
        ...['end of', 'tomorrow', 'tonight', 'today', 'next', 'this'],
        ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
        /\d{1,2}(?:st|nd|rd|th)?/,
        ...['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
        /\d{4}-\d{2}/,
      ),
    ],
    'i',
  ),
  `by before until till due no`,
);
/** "jan", "sept", "december": a month's name (its tail is `[a-z]*`). */
const MONTH_NAME = /(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*/;
const DAY_OF_MONTH = /\d{1,2}(?:st|nd|rd|th)?/;
const EXPLICIT_DATE = pattern(
  [
    /\b/,
    anyOf(/\d{4}-\d{2}-\d{2}/, pattern([MONTH_NAME, /\.?\s+/, DAY_OF_MONTH]), pattern([DAY_OF_MONTH, /\s+(?:of\s+)?/, MONTH_NAME])),
    /\b/,
  ],
  'i',
);

const TASK = gated(
  new RegExp(
    [
      pattern([
        /\b(?:i|we)(?:\s+really|\s+still|\s+also|\s+definitely|\s+just)?\s*/,
        anyOf(
          ...['need to', 'have to', 'must', 'should', "'ll need to", 'got to', 'gotta', 'want to', 'wanna'],
          ...['plan to', 'am planning to', "'m planning to", 'are planning to', "'re planning to"],
          ...["'m going to", 'am going to', 'are going to', "'re going to", "'m gonna", "'re gonna", 'will', "'ll"],
          ...['intend to', 'hope to', "'m hoping to", "'m trying to", 'am trying to', 'are trying to', "'m about to"],
        ),
        /\b/,
      ]).source,
      String.raw`\b(?:todo|to-do|remind me|don't forget|make sure to|next step|action item|on my list)\b`,
    ].join('|'),
    'i',
  ),
  // `\s*` lets the verb follow "I", "we" or the adverb directly: "ineed to", "i reallyneed to".
  `need have must should ll got gotta want wanna plan am m are re will intend hope todo do remind forget sure step action list
    ${glue('i we really still also definitely just', 'need have must should got gotta want wanna plan am are will intend hope')}`,
);

/** "please ", "so ", "okay ", "now ": words before a request. */
const REQUEST_LEAD_IN = /^(?:please\s+|so\s+|ok(?:ay)?\s+|now\s+)?/;

/** A request to the other party ("can you add…", "fix the…"): a task when the user says it. */
const REQUEST = gated(
  new RegExp(
    [
      pattern([
        REQUEST_LEAD_IN,
        /(?:can|could|would|will) you\s+(?:please\s+)?/,
        anyOf(
          ...['help', 'write', 'create', 'add', 'fix', 'implement', 'build', 'make', 'set up', 'explain', 'show', 'review'],
          ...['check', 'update', 'refactor', 'generate', 'draft', 'remind', 'find', 'look'],
        ),
        /\b/,
      ]).source,
      pattern([
        REQUEST_LEAD_IN,
        anyOf(
          ...['help me', 'write', 'create', 'add', 'fix', 'implement', 'build', 'make', 'set up', 'explain', 'show me', 'review'],
          ...['check', 'update', 'refactor', 'generate', 'draft', 'remind me', "let's"],
        ),
        /\b/,
      ]).source,
      String.raw`\bplease\s*[.!]?$`,
    ].join('|'),
    'i',
  ),
  `you please help write create add fix implement build make set explain show review check update refactor generate draft remind let`,
);

const WORKING = gated(
  oneOf(
    [
      pattern([
        /\b(?:i'm|i am|we're|we are)\s+(?:currently\s+|now\s+|still\s+|also\s+)?/,
        anyOf(
          ...['working on', 'building', 'writing', 'developing', 'implementing', 'making', 'creating', 'setting up', 'starting'],
          ...['learning', 'studying', 'preparing', 'migrating', 'refactoring', 'debugging', 'fixing', 'designing', 'planning'],
        ),
        /\b/,
      ]),
      /^(?:please\s+)?(?:(?:can|could) you\s+)?help me\b/,
    ],
    'i',
  ),
  `working building writing developing implementing making creating setting starting learning studying preparing migrating
    refactoring debugging fixing designing planning help`,
);

const PAST_VERB = gated(
  pattern(
    [
      /\b(?:i|we|he|she|they|my \w+|our \w+)\s+(?:(?:just|also|even|finally|recently|really|actually|already|\w+ly)\s+)?/,
      anyOf(
        ...['went', 'visited', 'attended', 'met', 'joined', 'celebrated', 'travell?ed', 'took', 'saw', 'watched', 'won', 'bought'],
        ...['adopted', 'graduated', 'married', 'got', 'had', 'did', 'made', 'gave', 'received', 'started', 'began', 'signed'],
        ...['scored', 'ran', 'hiked', 'painted', 'wrote', 'read', 'tried', 'learned', 'learnt', 'found', 'lost', 'broke', 'left'],
        ...['came', 'spent', 'held', 'threw', 'hosted', 'organi[sz]ed', 'volunteered', 'participated', 'competed', 'performed'],
        ...['published', 'was', 'were', String.raw`\w{3,}ed`],
      ),
      /\b/,
    ],
    'i',
  ),
  `i we he she they my our`,
);

/** A hedged or passing opinion: "feels a bit bloated", "kind of clunky", "mostly positive". */
const HEDGE = gated(
  /\b(?:feels?|felt|kind of|kinda|sort of|a bit|a little|somewhat|mostly|annoying|clunky|meh)\b/i,
  'feel feels felt kind kinda sort bit little somewhat mostly annoying clunky meh',
);

/**
 * Said as not finished: a negation ("it's not done yet"), or a completion inside a clause of time or
 * condition — "stay on 3.12 until the accounting stuff is done", "once the migration is finished we
 * deploy" — which names when something else happens, not what was finished ("after the migration was
 * done" is past, and a finish).
 */
const NOT_DONE = new RegExp(
  [
    String.raw`\b(?:not|n't|never)\b[^.]*\b(?:done|finished|fixed|resolved|working)\b`,
    pattern([
      /\b/,
      anyOf('until', 'till', 'til', 'unless', 'once', 'as soon as', 'when', 'whenever', 'if', 'before', 'after'),
      /\b[^.;,]*?\b/,
      anyOf('is', 'are', "'s", 'gets?', 'has been', 'have been'),
      /\s+(?:all\s+|fully\s+|completely\s+)?/,
      anyOf('done', 'finished', 'complete', 'completed', 'fixed', 'resolved', 'merged', 'deployed', 'shipped', 'over'),
      /\b/,
    ]).source,
  ].join('|'),
  'i',
);

const QUESTION_START = pattern(
  [
    /^/,
    anyOf(
      ...['what', "what's", 'whats', 'how', "how's", 'why', 'when', 'where', 'which', 'who', 'whose', 'whom'],
      ...['is', 'are', 'am', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'should', 'would', 'will', 'shall'],
      ...['have', 'has', 'had', 'may', 'might', 'any', 'anything', 'anyone'],
      ...["isn't", "aren't", "don't", "doesn't", "didn't", "won't", "can't", "wouldn't", "shouldn't"],
    ),
    /\b/,
  ],
  'i',
);

/** The English pattern of each name the cascade (cascade.ts) tests. */
const PATTERNS: Record<Pattern, GatedPattern | RegExp> = {
  done: DONE,
  notDone: NOT_DONE,
  taskObject: TASK_OBJECT,
  decision: DECISION,
  preference: PREFERENCE,
  deadlineWord: DEADLINE_WORD,
  deadline: DEADLINE,
  byDate: BY_DATE,
  explicitDate: EXPLICIT_DATE,
  state: STATE,
  struggle: STRUGGLE,
  profile: PROFILE,
  task: TASK,
  request: REQUEST,
  working: WORKING,
  pastime: pattern(
    [
      /\b/,
      anyOf(
        ...['in the (?:evenings?|mornings?)', 'at night', 'on (?:the )?weekends?', 'every (?:evening|weekend|morning|night)'],
        ...['in my (?:free|spare) time', 'after work', 'as a hobby', 'for fun', 'on the side', 'as a side project'],
      ),
      /\b/,
    ],
    'i',
  ),
  pastVerb: PAST_VERB,
  hedge: HEDGE,
};

/** The gated patterns, each with its gate bit. */
const GATES = Object.entries(PATTERNS)
  .filter((entry): entry is [Pattern, GatedPattern] => !(entry[1] instanceof RegExp))
  .map(([name, pattern], i) => ({ name, pattern, bit: 1 << i }));
// A gate is one bit of a 31-bit number: one more gated pattern needs a wider set of gates.
if (GATES.length > 31) throw new Error(`rules-en: ${GATES.length} gated patterns, at most 31 gates`);
const GATE_OF = new Map(GATES.map((g) => [g.name, g]));
/** Every gate open: a sentence the word pass cannot vouch for (non-ASCII) runs every pattern. */
const ALL_GATES = GATES.reduce((all, g) => all | g.bit, 0);
/** The gate bits each word opens. */
const GATES_OF_WORD = new Map<string, number>();
for (const { pattern, bit } of GATES) for (const w of pattern.words) GATES_OF_WORD.set(w, (GATES_OF_WORD.get(w) ?? 0) | bit);

/** Does the pattern match `sentence`, whose scanWords() are `words`? (Skips the regex when the sentence lacks all of a gated pattern's words.) */
function matches(name: Pattern, sentence: string, words: SentenceWords): boolean {
  const gate = GATE_OF.get(name);
  if (gate === undefined) return (PATTERNS[name] as RegExp).test(sentence);
  return (
    (words.gates & gate.bit) !== 0 && (words.lower !== undefined ? gate.pattern.lower.test(words.lower) : gate.pattern.re.test(sentence))
  );
}

/**
 * For tests: every gated pattern, whether the words of `sentence` open its gate (a pattern that matches
 * must be open), and whether the pattern matches as the rules test it (as `re` must say).
 */
export function ruleGates(sentence: string): { rule: string; re: RegExp; open: boolean; matches: boolean }[] {
  const words = scanWords(sentence, []);
  return GATES.map(({ name, pattern, bit }) => ({
    rule: name,
    re: pattern.re,
    open: (words.gates & bit) !== 0,
    matches: matches(name, sentence, words),
  }));
}

/** Stop words and chit-chat. */
const COMMON = new Set([...STOP, ...FILLER]);

/** A common English word (stop word or chit-chat), i.e. not a name when capitalised. */
export function isCommonWord(word: string): boolean {
  return COMMON.has(word.toLowerCase());
}

const NOT_WORD_CHARS = /[^\p{L}\p{N}'#+.-]+/u;
const ASCII = /^[\x00-\x7f]*$/;
const WORD_EDGES = /^['.-]+|['.-]+$/g;

/** What one pass over a sentence's words tells. */
interface SentenceWords {
  /** Words that carry content (see countContentWords). */
  contentWords: number;
  /** Gate bits of the patterns whose words occur. */
  gates: number;
  /**
   * The sentence lowercased, where a case-insensitive ASCII pattern matches it as it matches the
   * sentence: unless it holds İ or the Kelvin sign, the only characters beyond ASCII that
   * lowercase into ASCII (a pattern's i flag without u never folds them to ASCII letters).
   */
  lower: string | undefined;
}

const LOWERCASES_INTO_ASCII = /[\u0130\u212A]/;

/**
 * Count the content words of a sentence and find the gates its words open.
 * Words are the lowercase runs of letters, digits and ' # + . - (edges trimmed,
 * "'s" dropped); gates look at the runs of letters and digits inside them
 * ("don't" → "don", "t"), as regex word boundaries see them.
 */
function scanWords(sentence: string, names: string[]): SentenceWords {
  const lower = sentence.toLowerCase();
  const lowerNames = names.map((name) => name.toLowerCase());
  let contentWords = 0;
  for (const raw of lower.split(NOT_WORD_CHARS)) {
    const w = trimWord(raw);
    if (w && isContent(w, lowerNames)) contentWords++;
  }
  // Unicode letters: the regexes' \b does not see them as word characters, so no gate is proven closed.
  if (!ASCII.test(sentence)) return { contentWords, gates: ALL_GATES, lower: LOWERCASES_INTO_ASCII.test(sentence) ? undefined : lower };
  let gates = 0;
  for (const run of lower.match(/[a-z0-9]+/g) ?? []) gates |= GATES_OF_WORD.get(run) ?? 0;
  return { contentWords, gates, lower };
}

/** A raw word without ' - . at its edges and without a final "'s" ("" when nothing is left). */
function trimWord(raw: string): string {
  const w = raw.replace(WORD_EDGES, '');
  return w.endsWith("'s") ? w.slice(0, -2) : w;
}

/** Does the (non-empty) word carry content: not a stop word, filler or a speaker's name; a single character only if a digit. */
function isContent(w: string, lowerNames: string[]): boolean {
  if (COMMON.has(w)) return false;
  if (w.length < 2 && !(w >= '0' && w <= '9')) return false;
  return !isNameWord(w, lowerNames);
}

interface VocativePatterns {
  /** Does the sentence contain the start of a name at all? (Every pattern needs one.) */
  any: RegExp;
  trailing: RegExp;
  leading: RegExp;
  inner: RegExp;
}

/** Vocative patterns per set of names, compiled once (a batch has the same two names for every sentence). */
const vocativeCache = new Map<string, VocativePatterns | null>();

function vocativePatterns(names: string[]): VocativePatterns | null {
  const key = names.join('\u0000');
  let cached = vocativeCache.get(key);
  if (cached !== undefined) return cached;
  const nameAlt = names
    .filter((n) => n.length >= 2)
    .flatMap((n) => [n, n.slice(0, 3)])
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (nameAlt.length === 0) cached = null;
  else {
    const alt = `(?:${nameAlt.join('|')})[a-z]*`;
    const starts = names.filter((n) => n.length >= 2).map((n) => n.slice(0, 3).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    // A vocative is a name as written, capital first: "as a career." does not end with "Car…" (Caroline).
    cached = {
      any: new RegExp(starts.join('|')),
      trailing: new RegExp(`(?:,\\s*|\\s+)${alt}\\s*([!.?,]*)\\s*$`),
      leading: new RegExp(
        `^(?:(?:[Hh]ey|[Hh]i|[Hh]ello|[Oo]h|[Ww]ow|[Yy]eah|[Yy]es|[Tt]hanks|[Tt]hank you|[Aa]w+|[Hh]a+|[Dd]ear)\\s*,?\\s*)?${alt}\\s*[,!.]\\s*`,
      ),
      inner: new RegExp(`,\\s*${alt}\\s*,`, 'g'),
    };
  }
  if (vocativeCache.size >= 256) vocativeCache.clear();
  vocativeCache.set(key, cached);
  return cached;
}

/** A tag question after a statement: ", how does that sound?", ", right?". */
const TAG_QUESTION = pattern(
  [
    /,\s*/,
    anyOf(
      ...['how does that sound', 'does that sound good', 'sound good', 'right', 'ok(?:ay)?', 'alright', 'you know'],
      ...["isn't it", "aren't they", "don't you think", 'what do you think', 'no', 'yeah'],
    ),
    /\s*\?+\s*$/,
  ],
  'i',
);

/** An interjection and its punctuation at the start: "Yeah, ", "Oh wow! ". */
const LEADING_INTERJECTION = pattern(
  [
    /^/,
    anyOf(
      ...['yeah', 'yes', 'yep', 'yup', 'oh', 'ooh', 'wow', 'whoa', 'well', 'so', 'hey', 'ok', 'okay', 'haha', 'hahaha', 'lol'],
      ...['um', 'uh', 'hmm', 'totally', 'absolutely', 'definitely', 'sure', 'right', 'aw+', 'omg', 'oh man', 'oh wow', 'also'],
      ...['anyway', 'anyways', 'btw', 'by the way', 'honestly', 'actually', 'ah', 'true', 'exactly', 'indeed', 'of course'],
      ...['no way', 'nice', 'cool', 'great', 'perfect', 'awesome', 'ugh', 'welp', 'alright', 'gotcha', 'got it', 'noted', 'fyi'],
    ),
    /\s*[,!.:-]+\s*/,
  ],
  'i',
);

/** A lead-in that only asks to remember what follows: "For the record: ", "Remember this, ". */
const REMEMBER_LEAD_IN = pattern(
  [
    /^/,
    anyOf(
      String.raw`(?:please\s+)?keep (?:this|that|it) (?:straight|in mind)(?: for me)?`,
      'for the record',
      'just so you know',
      'note to self',
      String.raw`(?:please\s+)?remember(?: this| that)?`,
      'important',
      "don't forget",
      'do not forget',
    ),
    /\s*[:,-]\s*/,
  ],
  'i',
);

/** Remove vocatives and leading interjections: "Wow, Caroline! That's great" → "That's great". */
export function stripAddress(sentence: string, names: string[]): string {
  let s = sentence.trim();
  const vocatives = vocativePatterns(names);
  if (vocatives?.any.test(s)) {
    s = s.replace(vocatives.trailing, '$1');
    s = s.replace(vocatives.leading, '');
    s = s.replace(vocatives.inner, ',');
  }
  // Tag questions: "I can send it tomorrow, how does that sound?" is a statement.
  if (s.includes('?') && s.includes(',')) s = s.replace(TAG_QUESTION, '.');
  // Leading interjections ("Yeah, I painted…" → "I painted…").
  for (let i = 0; i < 3; i++) {
    const next = s.replace(LEADING_INTERJECTION, '');
    if (next === s) break;
    s = next;
  }
  s = s.replace(/^(?:ugh|welp|btw|fyi|so|anyway)\s+(?=\S)/i, '');
  // Lead-ins that only ask to remember what follows.
  s = s.replace(REMEMBER_LEAD_IN, '');
  s = s.replace(/^(?:and\s+)?(?:please\s+)?(?:remember|don't forget|do not forget|keep in mind) that\s+(?=\S)/i, '');
  return s.trim();
}

/** Is the sentence a question? */
export function isQuestion(sentence: string): boolean {
  const s = sentence.trim();
  return (
    endsWithQuestionMark(s) ||
    (QUESTION_START.test(s) &&
      !/[.!]\s*$/.test(s) &&
      s.split(/\s+/).length <= 12 &&
      !/\b(?:i|we)\b/i.test(s.split(/\s+/).slice(0, 2).join(' ')))
  );
}

/** A "?" followed only by closing quotes and brackets, on a trimmed string. */
function endsWithQuestionMark(s: string): boolean {
  return /\?["')\]]*$/.test(s);
}

/** Words that carry content: not stop words, filler or speaker names (or their starts); one letter only if a digit. */
export function countContentWords(sentence: string, names: string[]): number {
  return scanWords(sentence, names).contentWords;
}

/** A speaker's name, or (3+ letters) the start of one: "mel" for Melanie. */
function isNameWord(w: string, lowerNames: string[]): boolean {
  return lowerNames.some((name) => name === w || (name.length >= 3 && w.length >= 3 && name.startsWith(w)));
}

function isFillerPhrase(sentence: string): boolean {
  const lower = sentence.toLowerCase();
  // On ASCII text the Unicode classes are a-z and 0-9 (and the ASCII one is several times faster).
  const s = (ASCII.test(lower) ? lower.replace(/[^a-z0-9'\s]+/g, ' ') : lower.replace(/[^\p{L}\p{N}'\s]+/gu, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  if (!s) return true;
  return FILLER_PHRASES.some((re) => re.test(s));
}

/** The English side of the cascade (cascade.ts). */
export const english: Language = {
  read(sentence, names) {
    const words = scanWords(sentence, names);
    return { contentWords: words.contentWords, has: (pattern) => matches(pattern, sentence, words) };
  },
  isChitChat: (sentence, contentWords) =>
    (contentWords < 3 && isFillerPhrase(sentence)) || (SIGN_OFF.test(sentence) && !/\b(?:i|we)(?:'ll| will)\b/i.test(sentence)),
  isQuestion,
  questionHasTopic: (sentence, contentWords) => contentWords >= 2 || /\d|[A-Z]{2,}|\b\w+\.\w+\b/.test(sentence),
  isSpecific: (sentence, contentWords) =>
    /\d/.test(sentence) ||
    contentWords >= 4 ||
    (ASCII.test(sentence) ? /(?<=\S\s+)[A-Z][A-Za-z0-9]+/ : /(?<=\S\s+)\p{Lu}[\p{L}\p{N}]+/u).test(sentence),
};

/** Classify one English sentence (already stripped of vocatives/interjections). */
export function analyseEnglish(sentence: string, ctx: AnalysisContext): SentenceAnalysis {
  return analyse(english, sentence, ctx);
}

// ---------------------------------------------------------------------------
// Third-person restatement

const MODAL_OR_PAST = new Set(
  `can can't cannot could couldn't will won't would wouldn't should shouldn't shall must
mustn't might may did didn't had hadn't was wasn't were went got made saw took came gave found thought told became left
felt brought began kept held wrote stood heard meant set met ran paid sat spoke led read grew lost fell sent built
understood drew broke spent cut drove bought wore chose sought threw caught dealt won forgot lent taught ate drank sang
swam flew rode hid shot slept fought fed hung knew put hit hurt quit shut bet cost split spread upset forgave froze woke
stole struck swore tore bit blew dug lit sank shook spun sprang stuck stung swept swung bent bound bled bred clung crept
fled flung ground knelt leapt slid strove wept wound overcame undertook withdrew mistook misunderstood used also just
really still never always often usually sometimes recently finally actually even only already totally definitely
absolutely kinda sorta too personally honestly literally simply currently now then first def truly mostly rarely
certainly probably generally and or but to gonna wanna gotta`.split(/\s+/),
);

const ADVERBS = new Set(
  `really just also always never still actually usually often sometimes recently finally even only
already totally definitely absolutely kinda sorta personally honestly literally simply currently now truly mostly rarely
certainly probably generally mainly especially seriously genuinely`.split(/\s+/),
);

/** "I" + optional adverbs + the verb to conjugate. */
const ADVERB_THEN_VERB = new RegExp(`\\bI((?:\\s+(?:${[...ADVERBS].join('|')}))*)\\s+([A-Za-z']+)\\b`, 'g');

/** Present-tense verbs that look like past tense, participles or adverbs. */
const PRESENT_LOOKALIKES = new Set(
  `need feed bleed speed proceed succeed exceed seed heed breed weed embed shed bring sing
ring sting swing cling fling spring string wring apply reply rely fly supply multiply comply imply ally`.split(/\s+/),
);

// A Map, not an object literal: "constructor" or "toString" must not find Object.prototype's.
const IRREGULAR_PRESENT = new Map([
  ['have', 'has'],
  ['do', 'does'],
  ['go', 'goes'],
  ['am', 'is'],
  ['be', 'is'],
]);

/** Third-person singular of a present-tense verb ("prefer" → "prefers"), or the word unchanged. */
export function thirdPerson(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR_PRESENT.get(lower);
  if (irregular) return irregular;
  if (MODAL_OR_PAST.has(lower) || lower.length < 2 || !isLowercaseLetters(lower)) return word;
  // (String ends instead of regexes: this runs for nearly every "I <verb>".)
  if ((lower.endsWith('ed') || lower.endsWith('ing') || lower.endsWith('ly')) && !PRESENT_LOOKALIKES.has(lower)) return word;
  const last = lower[lower.length - 1]!;
  const beforeLast = lower[lower.length - 2]!;
  if (last === 's' || last === 'x' || last === 'z' || last === 'o' || (last === 'h' && (beforeLast === 's' || beforeLast === 'c')))
    return `${word}es`;
  if (last === 'y' && !'aeiou'.includes(beforeLast)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Only a-z? */
function isLowercaseLetters(s: string): boolean {
  return /^[a-z]*$/.test(s);
}

function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/**
 * Restate first-person English in the third person for `speaker`:
 * "I prefer TypeScript" → "User prefers TypeScript", "my novel" → "User's novel".
 * When `listener` is given (both speakers are known people), second-person
 * subject forms are resolved too: "you're a great counselor" → "Caroline is a great counselor".
 */
/** Anything restateEnglish would rewrite for the speaker / the listener. */
const FIRST_PERSON = /\bI\b|\b[Mm](?:y|ine|yself|e)\b/;
const SECOND_PERSON = /\b[Yy]ou/;

export function restateEnglish(sentence: string, speaker: string, listener?: string): string {
  let s = sentence;
  if (FIRST_PERSON.test(s)) s = restateFirstPerson(s, speaker);
  if (listener && SECOND_PERSON.test(s)) s = restateSecondPerson(s, listener);
  return s;
}

/**
 * First-person forms, most specific first; one pass over the sentence. Group 1:
 * the adverbs and group 2: the verb of "I (adverbs) verb".
 */
const FIRST_PERSON_FORMS = new RegExp(
  [
    String.raw`\bI'm\b|\bI am\b`,
    String.raw`\bI've\b|\bI have\b`,
    String.raw`\bI haven't\b`,
    String.raw`\bI'd\b`,
    String.raw`\bI'll\b`,
    String.raw`\bI don't\b`,
    String.raw`\bI do not\b`,
    // (a verb that is itself "I…" is a stutter: "I I'd")
    ADVERB_THEN_VERB.source.replace(String.raw`\s+([A-Za-z']+)`, String.raw`\s+(?!I\b)([A-Za-z']+)`),
    String.raw`\bI\b`,
    String.raw`\b[Mm]y\b`,
    String.raw`\b[Mm]ine\b`,
    String.raw`\b[Mm]yself\b`,
    String.raw`(?<![A-Za-z'])[Mm]e\b(?!')`,
  ].join('|'),
  'g',
);

function restateFirstPerson(sentence: string, speaker: string): string {
  return sentence.replace(FIRST_PERSON_FORMS, (m: string, advs: string | undefined, verb: string | undefined) =>
    firstPersonForm(m, advs, verb, speaker),
  );
}

/** The restatement of one match of FIRST_PERSON_FORMS. */
function firstPersonForm(m: string, advs: string | undefined, verb: string | undefined, speaker: string): string {
  if (verb !== undefined) return `${speaker}${advs ?? ''} ${thirdPerson(verb)}`;
  switch (m) {
    case "I'm":
    case 'I am':
      return `${speaker} is`;
    case "I've":
    case 'I have':
      return `${speaker} has`;
    case "I haven't":
      return `${speaker} hasn't`;
    case "I'd":
      return `${speaker} would`;
    case "I'll":
      return `${speaker} will`;
    case "I don't":
      return `${speaker} doesn't`;
    case 'I do not':
      return `${speaker} does not`;
    case 'I':
      return speaker;
    case 'my':
    case 'My':
    case 'mine':
    case 'Mine':
      return possessive(speaker);
    case 'myself':
    case 'Myself':
      return 'themself';
    default:
      return speaker; // me, Me
  }
}

/** Second-person forms, most specific first, one pass. */
const SECOND_PERSON_FORMS =
  /\b[Yy]ou're\b|\b[Yy]ou are\b|\b[Yy]ou've\b|\b[Yy]ou have\b|\b[Yy]ou were\b|\b[Yy]ou'd\b|\b[Yy]ou'll\b|\b[Yy]our\b|\b[Yy]ours\b|\b[Yy]ourself\b/g;

function restateSecondPerson(sentence: string, listener: string): string {
  return sentence.replace(SECOND_PERSON_FORMS, (m: string) => {
    switch (m.slice(3)) {
      case "'re":
      case ' are':
        return `${listener} is`;
      case "'ve":
      case ' have':
        return `${listener} has`;
      case ' were':
        return `${listener} was`;
      case "'d":
        return `${listener} would`;
      case "'ll":
        return `${listener} will`;
      case 'r':
      case 'rs':
        return possessive(listener);
      default:
        return 'themself'; // yourself
    }
  });
}

/** Chat shorthand spelled out, so a search for "favorite" finds "fav". */
const SHORTHAND: [RegExp, string][] = [
  [/\bfavs?\b/gi, 'favorite'],
  [/\bfave\b/gi, 'favorite'],
  [/\bpics\b/gi, 'pictures'],
  [/\bpic\b/gi, 'picture'],
  [/\bpix\b/gi, 'pictures'],
  [/\bb-?days?\b/gi, 'birthday'],
  [/\bgonna\b/gi, 'going to'],
  [/\bwanna\b/gi, 'want to'],
  [/\bgotta\b/gi, 'got to'],
  [/\bkinda\b/gi, 'kind of'],
  [/\bsorta\b/gi, 'sort of'],
  [/\bthx\b/gi, 'thanks'],
  [/\blemme\b/gi, 'let me'],
  [/\bgimme\b/gi, 'give me'],
  [/\bvids\b/gi, 'videos'],
  [/\bvid\b/gi, 'video'],
  [/\bpl[sz]\b/gi, 'please'],
  [/\b(?:cuz|coz|bc)\b/gi, 'because'],
  [/\bconvo\b/gi, 'conversation'],
  [/\bvacay\b/gi, 'vacation'],
  [/\bedu\b/gi, 'education'],
  [/\bbiz\b/gi, 'business'],
  [/\bw\/(?=\s)/gi, 'with'],
  [/\btmrw\b/gi, 'tomorrow'],
  [/\bthru\b/gi, 'through'],
  [/\bppl\b/gi, 'people'],
  [/\bmins\b/gi, 'minutes'],
  [/\bhrs\b/gi, 'hours'],
  [/\byrs\b/gi, 'years'],
  [/\bmo(?:s|nths)\b(?=\s+ago)/gi, 'months'],
  [/\bthinkin'/gi, 'thinking'],
  [/\bdoin'/gi, 'doing'],
  [/\bgoin'/gi, 'going'],
  [/\bnothin'/gi, 'nothing'],
  [/\bsomethin'/gi, 'something'],
];

/** All shorthand patterns as one regex, alternatives in table order (one pass instead of one per pattern). */
const SHORTHAND_ANY = new RegExp(SHORTHAND.map(([re]) => `(${re.source})`).join('|'), 'gi');
/** Capture-group number of each pattern in SHORTHAND_ANY. */
const SHORTHAND_GROUP: number[] = [];
{
  let group = 1;
  for (const [re] of SHORTHAND) {
    SHORTHAND_GROUP.push(group);
    group += 1 + (new RegExp(`${re.source}|`).exec('')!.length - 1);
  }
}

/**
 * Every SHORTHAND pattern without its lookaheads: a sentence without any of them
 * (most) skips the 35-group regex above. (Whole words, not just their starts:
 * "mobile" or "picnic" would match a prefix and run the big regex for nothing.)
 */
const SHORTHAND_START = pattern(
  [
    /\b/,
    anyOf(
      ...['favs?', 'fave', 'pics?', 'pix', 'b-?days?', 'gonna', 'wanna', 'gotta', 'kinda', 'sorta', 'thx', 'lemme', 'gimme', 'vids?']
        .concat(['pl[sz]', 'cuz', 'coz', 'bc', 'convo', 'vacay', 'edu', 'biz'])
        .map((word) => String.raw`${word}\b`),
      String.raw`w\/`,
      ...['tmrw', 'thru', 'ppl', 'mins', 'hrs', 'yrs', 'mo(?:s|nths)'].map((word) => String.raw`${word}\b`),
      ...["thinkin'", "doin'", "goin'", "nothin'", "somethin'"],
    ),
  ],
  'i',
);

/** Spell out common chat shorthand ("fav pic" → "favorite picture"). */
export function expandShorthand(sentence: string): string {
  if (!SHORTHAND_START.test(sentence)) return sentence;
  return sentence.replace(SHORTHAND_ANY, (...args: unknown[]) => {
    const m = args[0] as string;
    let i = 0;
    while (args[SHORTHAND_GROUP[i]!] === undefined) i++;
    const full = SHORTHAND[i]![1];
    return m[0] === m[0]!.toUpperCase() && m[0] !== m[0]!.toLowerCase() ? full[0]!.toUpperCase() + full.slice(1) : full;
  });
}

/** "How do I validate JWT refresh tokens?" → "how to validate JWT refresh tokens". */
/** "Can you set up the CI?" → "set up the CI" (a request, not a question). */
export function requestOf(sentence: string): string | undefined {
  const m =
    /^(?:please\s+)?(?:can|could|would|will) you(?: please)?\s+(?!be\b|have\b|know\b|tell if\b)(.+?)(?:,?\s*please)?\s*\?*\s*$/i.exec(
      sentence.trim(),
    );
  return m ? m[1] : undefined;
}

export function restateQuestion(sentence: string): string {
  const s = sentence.trim().replace(/^(?:so|also|and|but|quick question|question|hey|ok(?:ay)?)\s*[:,]?\s+/i, '');
  const howTo = /^(how|what|where|when|why|which|who)\s+(?:do|can|should|could|would|shall|might)\s+(?:i|we)\s+/i.exec(s);
  if (howTo) return `${howTo[1]!.toLowerCase()} to ${s.slice(howTo[0].length)}`.replace(/\?+\s*$/, '');
  return s;
}
