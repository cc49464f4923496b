/**
 * Light Korean analysis (search's analyzer and the Reflector's key terms): strip the particle (조사) or the common
 * verb/copula ending attached to a word, so 데이터베이스를 / 데이터베이스에서는
 * match 데이터베이스 and 인증은 matches 인증, and 배포했다 / 배포하기로 match 배포.
 *
 * No dictionary (a morphological analyser such as mecab-ko needs a native
 * binary and ~100 MB of data): a word keeps its surface form and gains the
 * stripped stem as a second term, so over-stripping costs a little precision
 * but never loses the surface match. Pure functions.
 */

/**
 * Suffixes removed from a Hangul word, longest first. Particles first, then
 * endings of 하다/되다 verbs built on Sino-Korean nouns (결정했다 → 결정) and
 * the copula (개발자입니다 → 개발자).
 */
const SUFFIXES: readonly string[] = [
  // compound particles
  '에서부터',
  '으로부터',
  '이라고는',
  '에서처럼',
  '로부터',
  '에게서',
  '한테서',
  '이라고',
  '이라는',
  '이라도',
  '이라면',
  '에서는',
  '에서도',
  '에서의',
  '에게는',
  '에게도',
  '으로는',
  '으로도',
  '으로서',
  '으로써',
  '까지는',
  '까지도',
  '부터는',
  '보다는',
  '처럼은',
  '만으로',
  '이든지',
  '에다가',
  '이나마',
  '이었다',
  '이에요',
  '입니다',
  '이었고',
  '였습니다',
  '이었습니다',
  // 하다 / 되다 verb endings after a noun
  '하였습니다',
  '했습니다',
  '합니다',
  '하였다',
  '했었다',
  '했어요',
  '하려고',
  '하기로',
  '하는데',
  '하면서',
  '했는데',
  '하지만',
  '되었다',
  '되었습니다',
  '됐습니다',
  '됩니다',
  '되어서',
  '되면서',
  '되는데',
  '했다',
  '했고',
  '해서',
  '해야',
  '하고',
  '하는',
  '하기',
  '하면',
  '하지',
  '하여',
  '한다',
  '해요',
  '했던',
  '할까',
  '하자',
  '됐다',
  '된다',
  '되는',
  '되고',
  '되어',
  '되면',
  '된',
  '시켰다',
  '시킨다',
  '시키는',
  // spoken (반말) endings: 결정했어, 설치됐어, 문제였어, 한결이었지
  '이었어요',
  '이었어',
  '이었지',
  '였어요',
  '였어',
  '였지',
  '였나',
  '였던',
  '했어',
  '했지',
  '했니',
  '했나',
  '했을까',
  '됐어',
  '됐지',
  '됐니',
  // simple particles (two syllables)
  '에서',
  '에게',
  '한테',
  '께서',
  '으로',
  '이랑',
  '보다',
  '처럼',
  '만큼',
  '마다',
  '까지',
  '부터',
  '라고',
  '라는',
  '이나',
  '이며',
  '이고',
  '에는',
  '에도',
  '에의',
  '와는',
  '과는',
  '로는',
  '로도',
  '로서',
  '로써',
  '이다',
  '였다',
  '예요',
  '이야',
  '이요',
  '조차',
  '밖에',
  '마저',
  '이든',
  '든지',
  '에다',
  // single syllables
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '께',
  '로',
  '와',
  '과',
  '도',
  '만',
  '나',
  '랑',
  '야',
  '요',
  '할',
  '한',
  '함',
  '됨',
];

/** Suffixes of one syllable are ambiguous (나이, 회의, 서비스는): only stripped when at least two syllables remain. */
const MIN_STEM_AFTER_SHORT = 2;
const MIN_STEM_AFTER_LONG = 1;

const HANGUL_SYLLABLE = /^[\uAC00-\uD7A3]+$/;

/** Is `word` made only of Hangul syllables? */
export function isHangulWord(word: string): boolean {
  return HANGUL_SYLLABLE.test(word);
}

/** A bare particle or ending carries no meaning on its own (e.g. the 을 of "PostgreSQL을"). */
export function isKoreanFunctionWord(word: string): boolean {
  return SUFFIX_SET.has(word);
}

const SUFFIX_SET = new Set(SUFFIXES);
const BY_LENGTH = [...SUFFIXES].sort((a, b) => b.length - a.length);

/**
 * Does the word end with a particle or ending of SUFFIXES, even one that
 * leaves too short a stem to strip (the 은 of 날은)? A Hangul word that does
 * not is a bare noun, or a predicate or adverb in a form the list does not
 * know (골랐어, 느려진, 살아, 대신).
 */
export function hasKoreanSuffix(word: string): boolean {
  return BY_LENGTH.some((suffix) => suffix.length < word.length && word.endsWith(suffix));
}

/**
 * The word without its particle or ending, or the word itself when nothing
 * (safely) strips. Only one suffix is removed: 데이터베이스에서는 is in the
 * list as one compound.
 */
export function koreanStem(word: string): string {
  for (const suffix of BY_LENGTH) {
    if (suffix.length >= word.length || !word.endsWith(suffix)) continue;
    const stemLength = word.length - suffix.length;
    const min = suffix.length === 1 ? MIN_STEM_AFTER_SHORT : MIN_STEM_AFTER_LONG;
    if (stemLength >= min) return word.slice(0, stemLength);
  }
  return word;
}

/**
 * The word's stems for search: the one koreanStem gives (the longest suffix
 * off), and, when a shorter suffix also strips, the stem without it — a
 * longer suffix may be a word's own last syllables (결과는: 과는 off leaves
 * 결; 는 off leaves 결과). Without the surface form; empty when nothing strips.
 */
export function koreanStems(word: string): string[] {
  const out: string[] = [];
  for (const suffix of BY_LENGTH) {
    if (suffix.length >= word.length || !word.endsWith(suffix)) continue;
    const stemLength = word.length - suffix.length;
    const min = suffix.length === 1 ? MIN_STEM_AFTER_SHORT : MIN_STEM_AFTER_LONG;
    if (stemLength >= min) out.push(word.slice(0, stemLength));
  }
  // The longest suffix's stem first (koreanStem's), then the shortest suffix's.
  return out.length <= 1 ? out : [...new Set([out[0]!, out[out.length - 1]!])];
}

/**
 * Korean question words (뭐, 언제, 어디, 어떻게, 얼마, 누가…), with whatever
 * particle or ending is glued on (뭐가, 언제야, 어디로, 얼마였어): what the
 * English stop words what / when / where / how are to an English question.
 * They frame a question rather than say what it is about, and a memory
 * (a statement) seldom holds them.
 */
const QUESTION_ROOTS = /^(?:무엇|무슨|언제|어디|어떻|어떤|어땠|어느|누구|누가|얼마|뭐|뭘|왜|몇)/;
/** Roots of one syllable: only as a short word (뭐가, 왜, 몇) — 왜곡, 몇몇 are not questions. */
const SHORT_ROOT = /^(?:뭐|뭘|왜|몇)/;

/**
 * Light predicates that only close a spoken sentence (했어, 됐어, 였어, 있어,
 * 거야): "해결하기로 했어?" is about 해결, not about 했어.
 */
const LIGHT_PREDICATES = new Set(
  '했어 했어요 했니 했지 했나 했을까 해 해요 됐어 됐어요 됐니 됐지 돼 였어 였어요 이었어 이었어요 였지 였나 있어 있어요 있었어 있었어요 있니 있지 없어 없어요 없었어 거야 거예요 건가 건데 건지 거지 할까 할래'.split(
    ' ',
  ),
);

/**
 * Adverbs and conjunctions that say how a question is asked, not what it is
 * about: the Korean of the English stop words each, again, all, most, more,
 * very, just, already, and, but, so, then (각각, 다시, 모두, 제일, 더, 너무,
 * 그냥, 이미, 그리고, 근데, 그래서, 그럼), and of the frequency and time
 * hedges a question carries (자주, 보통, 요즘, 실제로, 결국, 원래). A memory
 * states the answer ("주 2회 모여", "디카페인만 마셔") without them, so held by
 * no memory they would weigh most and veto the match.
 */
const FRAMING_ADVERBS = new Set(
  '각각 각자 다시 또 모두 전부 다 가장 제일 더 덜 매우 아주 너무 정말 진짜 되게 엄청 그냥 좀 조금 이미 벌써 아직 그리고 그래서 그런데 근데 하지만 그러면 그럼 또는 혹은 만약 이제 자주 보통 주로 항상 늘 요즘 최근 실제로 결국 원래 대체 도대체 혹시'.split(
    ' ',
  ),
);

/** Does this Hangul word only frame a question: a question word, a light predicate, or a framing adverb? */
export function isKoreanFramingWord(word: string): boolean {
  if (LIGHT_PREDICATES.has(word) || FRAMING_ADVERBS.has(word)) return true;
  if (!QUESTION_ROOTS.test(word)) return false;
  return !SHORT_ROOT.test(word) || [...word].length <= 4;
}

/**
 * Is `text` mostly Korean: at least as many words with Hangul in them as
 * words of Latin letters? An English-only embedding model (its vocabulary has
 * no Hangul) gives every such text about the same vector, so it gets none.
 */
export function isHangulDominant(text: string): boolean {
  let hangul = 0;
  let latin = 0;
  for (const word of text.split(/[\s\p{P}]+/u)) {
    if (/[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/.test(word)) hangul++;
    else if (/[A-Za-z]/.test(word)) latin++;
  }
  return hangul > 0 && hangul >= latin;
}
