/**
 * Korean rules of the heuristic Observer: the patterns of the shared rule
 * cascade (cascade.ts) for Korean — filler, questions, categories — and a
 * third-person restatement ("저는 … 선호해요" → "사용자는 … 선호해요").
 * Particles stay attached to words; patterns match stems and endings. Pure functions.
 */
import { anyOf, oneOf, pattern } from '../../../core/pattern.js';
import { analyse, type AnalysisContext, type Language, type Pattern, type SentenceAnalysis } from './cascade.js';

/** Whole eojeols (space-separated words) that carry no content on their own. */
const FILLER_WORD = new RegExp(
  '^(?:' +
    [
      '안녕\\S*',
      '반가\\S*',
      '반갑\\S*',
      '감사\\S*',
      '고마\\S*',
      '고맙\\S*',
      '네+',
      '넵',
      '넹',
      '응+',
      '어+',
      '예',
      '아니요',
      '아뇨',
      '좋\\S*',
      '알겠\\S*',
      '알았\\S*',
      '오케이',
      '오키',
      'ㅇㅋ',
      'ㅇㅇ',
      'ㅋ+',
      'ㅎ+',
      'ㅠ+',
      'ㅜ+',
      '와+',
      '우와',
      '대박\\S*',
      '굿+',
      '수고\\S*',
      '그렇\\S*',
      '그래\\S*',
      '맞\\S*',
      '물론\\S*',
      '천만\\S*',
      '정말\\S*',
      '진짜\\S*',
      '너무',
      '아주',
      '매우',
      '완전',
      '되게',
      '참',
      '잘',
      '도와주\\S*',
      '도와드\\S*',
      '무엇',
      '도와줘서',
      '덕분\\S*',
      '최고\\S*',
      '멋\\S*',
      '훌륭\\S*',
      '축하\\S*',
      '재밌\\S*',
      '재미있\\S*',
      '다행\\S*',
      '혹시',
      '그럼',
      '그러면',
      '그리고',
      '그래서',
      '근데',
      '음+',
      '아+',
      '오+',
      '헐',
      '와우',
      '부탁\\S*',
      '드려요',
      '드립니다',
      '해요',
      '합니다',
      '했어요',
      '요',
      '이에요',
      '예요',
      '입니다',
      '같아요',
      '같네요',
      '보여요',
      '보이네요',
      '하세요',
      '계세요',
      '주세요',
      '봐요',
      '봐',
      '또',
      '다음에',
      '나중에',
      '뵐게요',
      '봬요',
      '이야기',
      '얘기\\S*',
      '저',
      '나',
      '저는',
      '나는',
      '제가',
      '내가',
      '저도',
      '나도',
      '우리',
      '우리는',
      '우리도',
      '그거',
      '이거',
      '그게',
      '이게',
      '그건',
      '이건',
      '것',
      '거',
      '것도',
      '정도',
      '이렇게',
      '그렇게',
      '어떻게',
      '왜',
      '뭐',
      '무엇',
      '어디',
      '언제',
      '누구',
      '있어요',
      '있습니다',
      '있어',
      '없어요',
      '없습니다',
      '하고',
      '해서',
      '하는',
      '한',
      '할',
      '된',
      '되는',
      '수',
      '있는',
      '위해',
      '위한',
      '님',
    ].join('|') +
    ')$',
);

/** A way of speaking or a language to be answered in: 반말, 존댓말, 영어, … */
const SPEECH_STYLE = anyOf('반말', '존댓말', '존대', '높임말', '영어', '한국어', '한글', '일본어', '중국어');
/** A time of day or a habit a standing rule is bound to: 아침, 주말, 매일, 앞으로, … */
const RULE_TIME = anyOf('오전', '오후', '아침', '점심', '저녁', '밤', '주말', '평일', '매일', '하루', '평소', '앞으로');
const PREFERENCE = pattern([
  '(',
  oneOf([
    /(?:꼭|반드시|항상|늘|언제나)\s.*(?:주세요|해 ?줘|써 ?줘|하세요|싶어|원해)/,
    pattern([SPEECH_STYLE, /(?:로|으로)\s?(?:\S+\s?){0,2}?(?:해|말해|답해|대답해|써|얘기해|설명해|불러)\s?(?:줘|주세요|줄래|줘요|주라)/]),
    /\S+\s?말고\s?\S+(?:으로|로)\s?(?:\S+\s?)?(?:해|말해|써|불러|가)\s?(?:줘|주세요)/,
    // "아침엔 커피만" (only …), not a past "아침엔 커피만 마셨어".
    pattern([RULE_TIME, /(?:에|엔|에는|에도|는)?\s(?:\S+\s)?\S+만(?![^.!?]*(?:었|았|였|했|잤|갔|왔|봤|샀))(?=[\s.!~,]|$)/]),
    ...['선호', '좋아해', '좋아합니다', '좋아하는', '좋아함', '좋아하지', '싫어', '싫습니다', '싫다', '싫은'],
    '별로(?:야|예요|에요|입니다|라서)',
    ...['취향', '즐겨', '마음에 들', '더 좋', '더 나아', '더 낫', '더 편해', '더 편하'],
    /항상\s.*(?:써|쓰|사용)/,
    /절대\s.*(?:쓰지|안 쓰|사용하지|하지)/,
    '쓰지 (?:마|말아)',
    '(?:하지|쓰지) 말아 ?주',
  ]),
  ')',
]);
const DECISION =
  /(결정|[가-힣]기로\s?(?:했|하자|합시다|정했|결정)|하기로|쓰기로|사용하기로|가기로|정했|정하자|확정|채택|선택했|고르기로|(?:으)?로 가자|(?:으)?로 갑시다|(?:으)?로 하자|(?:으)?로 합시다|로 정리|쓰자|씁시다|사용하자|사용합시다)/;
const STATE = pattern([
  '(',
  oneOf([
    ...['이사했', '이사 ?왔', '이사 ?갔', '바꿨', '바꾸었', '바꿔서', '바꿨어', '전환했', '전환하', '이전했', '옮겼'],
    ...['마이그레이션', '갈아탔', '교체했', '변경했'],
    /(?:에서|부터)\s.*(?:로|으로)\s?(?:바꿨|옮겼|이전|변경|전환|갈아)/,
    /이제는?\s.*(?:써요|씁니다|써|사용해|사용합니다|사용 중)/,
    ...['더 이상', '이제 안', '그만뒀', '그만두었'],
  ]),
  ')',
]);
const DONE =
  /(완료|끝났|끝냈|끝냄|마쳤|마무리했|마무리됐|해결했|해결됐|해결되었|해결 완료|고쳤|수정했|수정 완료|배포했|배포 완료|성공했|통과했|머지했|다 했|다했|제출했)/;
const TASK_OBJECT = pattern(
  [
    '(',
    oneOf([
      ...['준비', '발표', '자료', '정리', '작성', '구현', '개발', '설치', '업데이트', '버그', '이슈', '기능', '작업', '티켓'],
      ...['PR', '풀 리퀘스트', '마이그레이션', '테스트', '빌드', '배포', '릴리스', '리팩터링', '수정', '챕터', '초안'],
      ...['보고서', '숙제', '과제', '프로젝트', '코드', '엔드포인트', 'API', '설정', '스크립트', '모듈', '서비스', '함수'],
      ...['페이지', '문서', '리뷰', '그거', '이거', '그것', '이것'],
    ]),
    ')',
  ],
  'i',
);
/** The speaker's own difficulty; an error of the work ("에러가 나요", "the build is broken") is a fact, not who they are. */
const STRUGGLE = /(어려워|어렵|헷갈|이해가 (?:잘 )?안|이해를 못|모르겠|막혔|막혀|힘들어|힘듭)/;
/** Who the speaker is: name, work, home, family, health (cascade.ts, "about the speaker"). */
const PROFILE = new RegExp(
  [
    '(?:제|내)\\s?이름은',
    '^(?:저는|나는)\\s\\S+(?:이고|이며|이에요|예요|입니다)(?:[\\s,.]|$)',
    '(?:개발자|엔지니어|디자이너|간호사|의사|교사|선생님|연구원|기획자|매니저|변호사|회계사|학생|대학생|대학원생|직장인|프리랜서)(?:로|으로)?\\s?(?:일해|일하고|근무|이에요|예요|입니다|이고|이며)',
    '에서\\s?(?:일해|일하고|근무해|근무하고|근무합니다)',
    '(?:우리|제|내)\\s?(?:아들|딸|아내|남편|엄마|아빠|어머니|아버지|형|오빠|누나|언니|동생|남동생|여동생|아이|애들?)(?:은|는|이|가|의)?\\s',
    '에\\s?살(?:아요|고 있|아|고|며|습니다)',
    '이사(?:해요|할 거|할 예정|갈 거|가요|합니다|했|왔|갔|를 가)',
    '알레르기|알러지|색맹|색약|당뇨',
  ].join('|'),
);
/** A time something is due by: "12월 15일까지", "금요일 전에", "크리스마스 전까지". */
const BY_DATE =
  /(?:\d{1,2}월\s?\d{1,2}일|\d{1,2}일|[월화수목금토일]요일|내일|모레|오늘|이번\s?주|다음\s?주|주말|월말|연말|이번\s?달|다음\s?달|크리스마스|설날|추석|오전|오후|저녁|밤)\s?(?:전)?\s?(?:까지|전에)/;
const EXPLICIT_DATE = /\d{4}-\d{2}-\d{2}|\d{1,2}월\s?\d{1,2}일|\d{4}년/;
/** A hedged or passing opinion ("좀 밋밋한 것 같아요", "오늘은 좀 피곤하네요"): a 🟢 remark, not a fact of the work. */
const HEDGE = /(?:^|\s)(?:좀|약간|조금|살짝|다소)\s|것 같(?:아요|네요|습니다)|듯해요|듯합니다/;
const DEADLINE_WORD = /(까지|마감|데드라인|기한|데모|발표|출시|릴리스|제출|시험|회의|미팅|면접|약속|일정)/;
const REQUEST = /(해 ?줘|해 ?주세요|해 ?주실|부탁|만들어 ?(?:줘|주세요)|알려 ?(?:줘|주세요)|설명해 ?(?:줘|주세요)|도와 ?(?:줘|주세요))/;
/** A plan or a promise: 해야 해요, 할 거예요, 할게요, … 실행하겠습니다 (not 알겠습니다 "understood", 좋겠어요 "would be nice", 모르겠어요). */
const TASK = pattern([
  '(',
  oneOf([
    /(?<!알|좋|맞|모르|괜찮|있|없|되|그렇)겠(?:습니다|어요)/,
    '해야',
    /[가-힣]야\s?(?:해|합니다|돼|됩니다|하는)/,
    ...['할 예정', '할 거', '할게', '할께', '하려고', '하려구', '계획', '예정', '작업 중', '작업하고', '만들고 있'],
    ...['하고 있어', '하는 중', '준비 중', '준비하고', '공부하고', '배우고', '개발하고', '구현하고', '할 일', '잊지 말'],
  ]),
  ')',
]);
const WORKING =
  /(작업 중|작업하고 있|만들고 있|개발하고 있|개발 중|구현하고 있|구현 중|공부하고 있|공부 중|배우고 있|준비하고 있|준비 중|쓰고 있|하는 중|도와 ?(?:줘|주세요))/;
const PAST = /(었|았|였|했|갔|왔|봤|샀|됐|났|썼|줬)(어|다|습니다|어요|지|는데|고|음)|다녀왔/;
const QUESTION_END = /(까|까요|나요|니|냐|가요|을까|ㄹ까|는지|은지|죠|지요|어때|어때요|뭐야|뭐예요|뭔가요)[?？]?\s*$/;
const QUESTION_WORD = /(어떻게|왜|뭐|무엇|무슨|언제|어디|누구|어느|몇|어떤|얼마)/;

/**
 * Chit-chat beyond filler words (docs/priorities.md, "none"): thanks, greetings and wishes, a verdict
 * on the other's choice, encouragement, weather talk — short sentences only (at most five words).
 */
const KOREAN_CHIT_CHAT: readonly RegExp[] = [
  /(?:감사|고마|고맙)\S*[\s.!~]*$/,
  /^(?:좋은\s?(?:아침|하루|저녁|밤|주말)|안녕히|잘\s?(?:자|자요|주무세요|가요|가세요|지내세요|있어요)|반갑|반가워|수고하세요|수고하셨|수고했)/,
  /(?:좋은|즐거운|행복한|편안한|멋진|즐거운)\s(?:시간|하루|주말|저녁|밤|여행|휴가)\s?(?:보내세요|되세요|보내요)/,
  /(?:^|\s)(?:푹\s)?쉬세요[\s.!~]*$/,
  /(?:좋은|훌륭한|탁월한|현명한|멋진|괜찮은)\s(?:결정|선택|생각|방법|질문|아이디어|방향|계획|접근)(?:이에요|이네요|입니다|이다|예요|네요)/,
  /^(?:와+\s|오+\s)?(?:정말\s|진짜\s)?잘\s?(?:됐|되었|됐어|하셨|했)(?:네요|어요|습니다|다)[\s.!~]*$/,
  /무리하지\s?(?:마세요|마|말아요)/,
  /(?:잘\s?)?부탁(?:드려요|드립니다|해요|합니다)[\s.!~]*$/,
  /(?:되시길|하시길|보내시길)\s?(?:바라요|바랍니다|빌어요|빌게요)[\s.!~]*$/,
  /응원(?:할게요|해요|합니다|할게)|화이팅|파이팅|힘내세요|축하(?:해요|합니다|드려요|해)/,
  /날씨\S*\s.*(?:좋|덥|춥|흐리|맑)\S*(?:네요|요|다)[\s.!~]*$/,
  /(?:대단|멋지|멋있|훌륭|부럽|좋겠|좋았겠|즐거우셨겠|힘드셨겠|재밌었겠)\S*[\s.!~]*$/,
  // The plain style between friends: good night, welcome back, any time, off to bed.
  /^(?:굿+\s?)?(?:굿나잇|굿밤|굿모닝|잘\s?자|푹\s?자|푹\s?쉬어|어서\s?와|잘\s?다녀와|또\s?봐|내일\s?봐|언제든(?:지)?)(?:요)?[\s.!~]*$/,
  /(?:^|\s)자러\s?(?:간다|갈게|가요|감)[\s.!~]*$/,
  // A guess at how the other feels ("설레겠다", "긴장되겠다", "마음이 놓이시겠다").
  /(?:설레|긴장되|떨리|신나|힘들|피곤하|속상하|아쉽|서운하|뿌듯하|든든하|행복하|기쁘|놓이|놓이시)겠(?:다|네|어|네요|어요)[\s.!~]*$/,
];

function eojeols(sentence: string): string[] {
  return sentence
    .replace(/[^\p{L}\p{N}\s#+.-]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter(Boolean);
}

/** Common particles, longest first, stripped before a word is checked against the filler list. */
const PARTICLE = /(?:에서|으로|한테|에게|까지|부터|처럼|보다|이랑|이나|을|를|이|가|은|는|에|로|도|만|의|와|과|랑|께|요)$/;

export function countKoreanContent(sentence: string, names: string[]): number {
  let n = 0;
  for (const w of eojeols(sentence)) {
    if (FILLER_WORD.test(w) || (w.length > 1 && FILLER_WORD.test(w.replace(PARTICLE, '')))) continue;
    if (names.some((name) => name.length >= 2 && w.startsWith(name))) continue;
    if (/^[A-Za-z]+$/.test(w) && w.length < 2) continue;
    n++;
  }
  return n;
}

/** Question words and endings that ask about nothing in particular (누구, 뭐, 어때 …). */
const KOREAN_ASKING = /^(?:어떻게|왜|뭐|무엇|무슨|언제|어디|누구|어느|몇|어떤|얼마|어때\S*|여전히|아직|혹시|그럼|그래서|요즘|지금)$/;

/**
 * The words of a Korean question that name its topic, particles off: "커피는 여전히 하루 한 잔?" → "커피 하루 한 잔"
 * (at most `max` words; empty when it names nothing).
 */
export function koreanTopicWords(question: string, names: string[], max = 5): string {
  const out: string[] = [];
  for (const w of eojeols(question.replace(/[?？]+\s*$/, ''))) {
    const bare = w.length > 1 ? w.replace(PARTICLE, '') : w;
    if (!bare || KOREAN_ASKING.test(bare) || QUESTION_END.test(w) || FILLER_WORD.test(w) || FILLER_WORD.test(bare)) continue;
    if (names.some((name) => name.length >= 2 && w.startsWith(name))) continue;
    out.push(bare);
    if (out.length >= max) break;
  }
  return out.join(' ');
}

export function isKoreanQuestion(sentence: string): boolean {
  const s = sentence.trim();
  if (/[?？]\s*$/.test(s)) return true;
  return QUESTION_END.test(s) && QUESTION_WORD.test(s);
}

/** The Korean pattern of each name the cascade (cascade.ts) tests; null where Korean has none. */
const PATTERNS: Record<Pattern, RegExp | null> = {
  done: DONE,
  notDone: /(안 끝|못 끝|아직|미완료)/,
  taskObject: TASK_OBJECT,
  decision: DECISION,
  preference: PREFERENCE,
  deadlineWord: DEADLINE_WORD,
  deadline: /(마감|데드라인)/,
  byDate: BY_DATE,
  explicitDate: EXPLICIT_DATE,
  state: STATE,
  struggle: STRUGGLE,
  profile: PROFILE,
  hedge: HEDGE,
  task: TASK,
  request: REQUEST,
  working: WORKING,
  pastime: /(주말마다|주말에|저녁마다|저녁에|밤마다|퇴근 ?후에?|취미로|틈틈이|여가 ?시간에)/,
  pastVerb: PAST,
};

/** The Korean side of the cascade (cascade.ts). */
export const korean: Language = {
  read: (sentence, names) => ({
    contentWords: countKoreanContent(sentence, names),
    has: (pattern) => PATTERNS[pattern]?.test(sentence) ?? false,
  }),
  isChitChat: (sentence) => {
    const s = sentence.trim();
    return s.split(/\s+/).length <= 5 && !/\d/.test(s) && KOREAN_CHIT_CHAT.some((re) => re.test(s));
  },
  isQuestion: isKoreanQuestion,
  questionHasTopic: (sentence, contentWords) => contentWords >= 2 || /[A-Za-z]{2,}|\d/.test(sentence),
  isSpecific: (sentence, contentWords) => /\d|[A-Za-z]{2,}/.test(sentence) || contentWords >= 3,
};

/** Classify one Korean sentence. */
export function analyseKorean(sentence: string, ctx: AnalysisContext): SentenceAnalysis {
  return analyse(korean, sentence, ctx);
}

/** Does the Hangul syllable have a final consonant (받침)? */
function hasBatchim(word: string): boolean {
  const last = word.charCodeAt(word.length - 1);
  if (last < 0xac00 || last > 0xd7a3) return false;
  return (last - 0xac00) % 28 !== 0;
}

function particle(word: string, withBatchim: string, without: string): string {
  return word + (hasBatchim(word) ? withBatchim : without);
}

/**
 * Restate first-person Korean for `speaker`: 저는/나는 → speaker는,
 * 제가/내가 → speaker가, 제/내/저의 → speaker의, 저를/나를 → speaker를.
 */
export function restateKorean(sentence: string, speaker: string): string {
  const B = '(?<![\\p{L}\\p{N}])';
  const A = '(?![\\p{L}\\p{N}])';
  return sentence
    .replace(/^(?:나|저)\s+/u, `${particle(speaker, '은', '는')} `)
    .replace(new RegExp(`${B}(?:저는|나는)${A}`, 'gu'), particle(speaker, '은', '는'))
    .replace(new RegExp(`${B}(?:제가|내가)${A}`, 'gu'), particle(speaker, '이', '가'))
    .replace(new RegExp(`${B}(?:저도|나도)${A}`, 'gu'), `${speaker}도`)
    .replace(new RegExp(`${B}(?:저를|나를)${A}`, 'gu'), particle(speaker, '을', '를'))
    .replace(new RegExp(`${B}(?:저한테|나한테|저에게|나에게)${A}`, 'gu'), `${speaker}에게`)
    .replace(new RegExp(`${B}(?:저의|나의|제|내)(?=\\s)`, 'gu'), `${speaker}의`);
}

/** Korean label for a role when no name is known. */
export const KOREAN_ROLE_LABEL = { user: '사용자', assistant: '어시스턴트' } as const;
