/**
 * Korean observations in the plain written style of a note (한다체): "사용자는 … 선호한다", not
 * "사용자는 … 선호해요". A polite ending (해요체, 합쇼체) is how one speaks to the listener; in a
 * third-person memory it reads as the Observer talking to the reader ("사용자는 …
 * 선호해요"). docs/heuristic-observer.md, step 5, describes it.
 *
 * Only endings whose plain form is certain are changed: past and future tenses (했어요 → 했다,
 * 하겠습니다 → 하겠다), 하다 verbs (선호해요 → 선호한다, 준비해야 해요 → 준비해야 한다) and the
 * 하다 adjectives of a short list (중요해요 → 중요하다), the copula (이에요 → 이다), 있다/없다/
 * 싶다/되다, promises (할게요 → 하겠다) and a few common verbs. Any other ending is left as it was
 * said: a verb and an adjective conjugate differently (먹어요 → 먹는다, 좋아요 → 좋다) and no
 * dictionary is at hand. Pure functions.
 */
import { anyOf, pattern } from '../../core/pattern.js';

const HANGUL_BASE = 0xac00;
const JONG_COUNT = 28;
/** Final-consonant (종성) indices. */
const JONG_RIEUL = 8;
const JONG_SSANGSIOS = 20;

function jong(syllable: string): number {
  const c = syllable.charCodeAt(0) - HANGUL_BASE;
  return c >= 0 && c < 11172 ? c % JONG_COUNT : -1;
}

function withJong(syllable: string, final: number): string {
  const c = syllable.charCodeAt(0) - HANGUL_BASE;
  return String.fromCharCode(HANGUL_BASE + c - (c % JONG_COUNT) + final);
}

/** 하다 adjectives: their plain form is 하다, not 한다 (중요해요 → 중요하다). */
const HADA_ADJECTIVE = pattern([
  anyOf(
    ...['중요', '필요', '피곤', '행복', '불행', '편', '불편', '간단', '복잡', '유명', '조용', '깨끗', '심심', '궁금', '가능'],
    ...['불가능', '충분', '부족', '익숙', '건강', '위험', '안전', '똑똑', '친절', '따뜻', '시원', '유용', '적절', '정확'],
    ...['확실', '불확실', '비슷', '다양', '특별', '완벽', '솔직', '미안', '속상', '답답', '초조', '걱정스러', '깔끔', '느긋'],
    ...['한가', '급', '비', '싸', '강력', '유연', '안정', '불안정', '불안', '우울', '만족', '흔', '이상'],
  ),
  /$/,
]);

/** Common verbs and adjectives whose 해요 form is not regular enough to derive. */
const IRREGULAR: ReadonlyArray<[RegExp, string]> = [
  [/헷갈려요$/, '헷갈린다'],
  [/어려워요$/, '어렵다'],
  [/쉬워요$/, '쉽다'],
  [/힘들어요$/, '힘들다'],
  [/좋아요$/, '좋다'],
  [/싫어요$/, '싫다'],
  [/몰라요$/, '모른다'],
  [/알아요$/, '안다'],
  [/살아요$/, '산다'],
  [/써요$/, '쓴다'],
  [/봐요$/, '본다'],
  [/와요$/, '온다'],
  [/가요$/, '간다'],
  [/먹어요$/, '먹는다'],
  [/배워요$/, '배운다'],
  [/다녀요$/, '다닌다'],
  [/돼요$/, '된다'],
  [/않아요$/, '않는다'],
  [/싶어요$/, '싶다'],
  [/같아요$/, '같다'],
];

/** A predicate (the sentence's last word, punctuation off) in the plain style, or undefined when its ending is not one we know. */
function plainPredicate(word: string): string | undefined {
  // Past and the future 겠: 했어요 / 갔어요 / 했습니다 / 하겠습니다 → 했다 / 갔다 / 했다 / 하겠다.
  let m = /^(.*)([가-힣])(?:어요|습니다)$/.exec(word);
  if (m && (jong(m[2]!) === JONG_SSANGSIOS || m[2] === '겠')) return `${m[1]}${m[2]}다`;
  if (/(?:있|없)(?:어요|습니다)$/.test(word)) return word.replace(/(있|없)(?:어요|습니다)$/, '$1다');
  // The copula: 푸른숲이에요 / 12개예요 / 개발자입니다 → 푸른숲이다 / 12개다 / 개발자이다.
  if (/(?:이에요|입니다)$/.test(word)) return word.replace(/(?:이에요|입니다)$/, '이다');
  if (/[가-힣]예요$/.test(word)) return word.replace(/예요$/, '다');
  // 하다: 선호해요 / 준비해야 해요 / 합니다 → 선호한다 / 해야 한다 / 한다; adjectives keep 하다.
  m = /^(.*)(?:해요|합니다)$/.exec(word);
  if (m) return `${m[1]}${HADA_ADJECTIVE.test(m[1]!) ? '하다' : '한다'}`;
  if (/됩니다$/.test(word)) return word.replace(/됩니다$/, '된다');
  // A promise: 할게요 / 볼게요 → 하겠다 / 보겠다.
  m = /^(.*)([가-힣])게요$/.exec(word);
  if (m && jong(m[2]!) === JONG_RIEUL) return `${m[1]}${withJong(m[2]!, 0)}겠다`;
  for (const [ending, plain] of IRREGULAR) if (ending.test(word)) return word.replace(ending, plain);
  return undefined;
}

/**
 * A Korean sentence said in the plain style of a note, or as it was when its ending is not one
 * we know: "저는 타입스크립트를 선호해요." → "저는 타입스크립트를 선호한다."
 */
export function plainKorean(sentence: string): string {
  const m = /^(.*?)([가-힣]+)([.!~…]*)\s*$/.exec(sentence);
  if (!m) return sentence;
  const plain = plainPredicate(m[2]!);
  if (plain === undefined) return sentence;
  // "!" and "~" are how it was said; a note ends with a period.
  return `${m[1]}${plain}${m[3] ? '.' : ''}`;
}
