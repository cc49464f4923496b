/**
 * The dashboard's words in English and Korean (`ocm-run ui`, docs/dashboard.md).
 * The language is chosen by `?lang=ko|en` (kept in a cookie) or else by the
 * browser's Accept-Language. Every visible string of the pages is here.
 *
 * Size: every visible string of the dashboard, twice (English and Korean) — two tables and no logic; a string
 * is found by its key, not by its place.
 */
export type Lang = 'en' | 'ko';

export const LANGS: readonly Lang[] = ['en', 'ko'];

const en = {
  title: 'OC-Memory',
  navTimeline: 'Timeline',
  navSearch: 'Search',
  navActive: 'Active memory',
  navTiers: 'Tiers',
  navHealth: 'Health',
  skip: 'Skip to content',
  language: '한국어',
  keyboardHelp:
    'Keys: / search · j / k next / previous observation · e edit · g t timeline · g s search · g a active · g i tiers · g h health',
  // Timeline
  timelineTitle: 'Timeline',
  filterAgent: 'Agent',
  filterPriority: 'Priority',
  filterCategory: 'Category',
  filterTier: 'Tier',
  tierHot: 'hot',
  tierWarm: 'warm',
  tierCold: 'cold',
  filterTag: 'Tag',
  filterSince: 'Since',
  filterUntil: 'Until',
  filterApply: 'Apply',
  any: 'any',
  older: 'Older days →',
  newest: '← Newest',
  noObservations: 'No observations match.',
  observations: 'observations',
  observation: 'observation',
  priorityHigh: 'high',
  priorityMedium: 'medium',
  priorityLow: 'low',
  from: 'from',
  session: 'session',
  entries: 'entries',
  inFile: 'in',
  edit: 'Edit',
  pin: 'Pin',
  unpin: 'Unpin',
  markDone: 'Mark done',
  markOpen: 'Reopen',
  forget: 'Forget…',
  pinned: 'pinned',
  done: 'done',
  // Add by hand
  addTitle: 'Remember this',
  addText: 'Text',
  addSave: 'Save to memory',
  addAgent: 'Agent',
  added: 'Saved as',
  alreadyThere: 'Already in memory as',
  // Edit
  editTitle: 'Edit observation',
  text: 'Text',
  priority: 'Priority',
  category: 'Category',
  tags: 'Tags (space-separated, without #)',
  isDone: 'Done (✅)',
  markTitle: 'Done or superseded',
  markNone: 'Current (no mark)',
  markDoneOption: 'Done',
  markSupersededOption: 'Superseded by the observation',
  markBy: 'id of the newer observation (for superseded)',
  markSave: 'Set the mark',
  superseded: 'superseded',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'Saved to',
  editNotFound: 'That observation is no longer in its file (changed by a job or an editor meanwhile). Nothing was changed.',
  // Forget
  forgetTitle: 'Forget this observation',
  forgetExplain:
    'It is erased everywhere: the day file, rollback copies of tier moves, reflections that quote it, logs, the search index, the embedding vectors and active memory. The audit log keeps its id, never its text. This cannot be undone.',
  forgetConfirm: 'Forget it',
  forgot: 'Forgotten',
  // Search
  searchTitle: 'Search',
  searchPlaceholder: 'What to look for',
  searchButton: 'Search',
  searchMode: 'mode',
  modeText: 'text',
  modeHybrid: 'hybrid',
  searchNone: 'No memory matches.',
  searchMs: 'ms',
  // Active memory
  activeTitle: 'Active memory',
  activeNone: 'No active memory yet for this agent (it is written after the first conversations are observed).',
  tokensOfBudget: 'tokens of a budget of',
  overBudget: 'over budget',
  injectionsTitle: 'Last injections into agents (hooks, plugin, MCP)',
  injectionsNone: 'None recorded in logs/hooks.log yet.',
  heldTitle: 'Held for review: never injected',
  heldNote:
    'Observations whose text tries to act on the agent (a fake memory-block tag, "ignore previous instructions", a system header, a blanket authorisation, credentials or files sent away, code from the network). They stay in their day file but never go into active memory, a prompt or a search answer. Edit or forget one here, or leave it as a record.',
  heldNone: 'Nothing held: no observation in the hot tier looks like an instruction to the agent.',
  heldWhy: 'Why',
  heldDate: 'date',
  injectionsNote:
    'From logs/hooks.log: at session start the active memory goes in; with each prompt, the memories a search on the prompt found relevant (their ids with their relevance to the prompt, 0–1; older log lines recorded only a count).',
  injectedWhat: 'what went in (relevance)',
  injectedChars: 'characters',
  reflection: 'reflection',
  // Tiers
  tiersTitle: 'Tiers',
  tierFiles: 'day files',
  tierBytes: 'size',
  tierOldest: 'oldest',
  tierNewest: 'newest',
  pendingTitle: 'Moves waiting for approval',
  pendingNone: 'Nothing waits for approval.',
  approve: 'Approve',
  reject: 'Reject',
  approved: 'Approved',
  rejected: 'Rejected',
  auditTitle: 'Audit log (latest first)',
  auditNone: 'The audit log is empty.',
  rollback: 'Roll back',
  rolledBack: 'Rolled back',
  rolledBackBy: 'rolled back by',
  alreadyForgotten: 'Already forgotten (the form was sent twice, or another tab did it):',
  alreadyApproved: 'Already approved (the form was sent twice, or another tab did it):',
  alreadyRejected: 'Already rejected (the form was sent twice, or another tab did it):',
  notMoved: 'Not moved, nothing was changed:',
  // Health
  healthTitle: 'Health and figures',
  jobsTitle: 'Last ticks',
  job: 'job',
  lastRun: 'last run',
  lastOk: 'last success',
  lastError: 'last error',
  none: 'none',
  sourcesTitle: 'Sources and their cursors',
  streams: 'streams',
  messages: 'messages',
  malformed: 'malformed',
  lastRead: 'last read',
  llmTitle: 'LLM usage and cost',
  llmNone: 'No LLM calls recorded (the offline heuristic observer costs nothing).',
  role: 'role',
  model: 'model',
  inputTokens: 'input tokens',
  outputTokens: 'output tokens',
  calls: 'calls',
  cost: 'cost (USD)',
  chartsTitle: 'Charts',
  chartPerDay: 'Observations per day',
  chartLlm: 'LLM tokens per day',
  chartTokens: 'Token saving: transcript tokens read vs what the agent loads',
  chartSearch: 'Search latency (ms, recent searches)',
  chartDay: 'day',
  chartWhat: 'what',
  chartSearchNumber: 'search',
  observationCount: 'observations',
  transcriptTokens: 'transcript tokens read',
  activeTokens: 'active memory tokens',
  efficiency: 'condensed',
  searchLatency: 'search p95',
  time: 'time',
  event: 'event',
  via: 'via',
  action: 'action',
  op: 'op',
  source: 'source',
  cursors: 'cursors',
  path: 'path',
  cursor: 'cursor',
  tokens: 'tokens',
  // File view
  fileTitle: 'Day file',
  // Errors
  errorTitle: 'Something went wrong',
  denied: 'Open the dashboard with the address `ocm-run ui` printed (it carries a token for this run).',
  loginUsed:
    'This login address has been used already: it opens the dashboard once, in one browser. Go on in the browser that opened it, or restart `ocm-run ui` for a new address.',
  foreignHost: 'This dashboard only answers to 127.0.0.1 / localhost.',
  foreignOrigin: 'Refused: the request came from another site.',
  back: 'Back',
  searchWarning: 'Note from the search:',
  originalMessage: 'The message, as the program wrote it:',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const ko: Messages = {
  title: 'OC-Memory',
  navTimeline: '타임라인',
  navSearch: '검색',
  navActive: '활성 메모리',
  navTiers: '계층',
  navHealth: '상태',
  skip: '본문으로 건너뛰기',
  language: 'English',
  keyboardHelp: '단축키: / 검색 · j / k 다음 / 이전 관찰 · e 편집 · g t 타임라인 · g s 검색 · g a 활성 메모리 · g i 계층 · g h 상태',
  timelineTitle: '타임라인',
  filterAgent: '에이전트',
  filterPriority: '우선순위',
  filterCategory: '분류',
  filterTier: '계층',
  tierHot: '핫',
  tierWarm: '웜',
  tierCold: '콜드',
  filterTag: '태그',
  filterSince: '시작일',
  filterUntil: '종료일',
  filterApply: '적용',
  any: '전체',
  older: '이전 날짜 →',
  newest: '← 최신',
  noObservations: '조건에 맞는 관찰이 없습니다.',
  observations: '개 관찰',
  observation: '개 관찰',
  priorityHigh: '높음',
  priorityMedium: '보통',
  priorityLow: '낮음',
  from: '출처',
  session: '세션',
  entries: '항목',
  inFile: '위치',
  edit: '편집',
  pin: '고정',
  unpin: '고정 해제',
  markDone: '완료로 표시',
  markOpen: '다시 열기',
  forget: '잊기…',
  pinned: '고정됨',
  done: '완료',
  addTitle: '이것을 기억하기',
  addText: '내용',
  addSave: '메모리에 저장',
  addAgent: '에이전트',
  added: '저장됨:',
  alreadyThere: '이미 메모리에 있음:',
  editTitle: '관찰 편집',
  text: '내용',
  priority: '우선순위',
  category: '분류',
  tags: '태그 (공백으로 구분, # 없이)',
  isDone: '완료 (✅)',
  markTitle: '완료 또는 대체됨',
  markNone: '현재 항목 (표시 없음)',
  markDoneOption: '완료',
  markSupersededOption: '다음 관찰로 대체됨',
  markBy: '새 관찰의 id (대체됨일 때)',
  markSave: '표시 저장',
  superseded: '대체됨',
  save: '저장',
  cancel: '취소',
  saved: '저장한 파일:',
  editNotFound: '그 관찰이 더 이상 파일에 없습니다 (그 사이 작업이나 편집기가 바꿨습니다). 아무것도 바꾸지 않았습니다.',
  forgetTitle: '이 관찰 잊기',
  forgetExplain:
    '모든 곳에서 지웁니다: 일별 파일, 계층 이동의 롤백 사본, 이를 인용한 회고, 로그, 검색 색인, 임베딩 벡터, 활성 메모리. 감사 로그에는 내용이 아니라 id만 남습니다. 되돌릴 수 없습니다.',
  forgetConfirm: '잊기',
  forgot: '잊었습니다',
  searchTitle: '검색',
  searchPlaceholder: '찾을 내용',
  searchButton: '검색',
  searchMode: '방식',
  modeText: '텍스트',
  modeHybrid: '하이브리드',
  searchNone: '일치하는 메모리가 없습니다.',
  searchMs: 'ms',
  activeTitle: '활성 메모리',
  activeNone: '이 에이전트의 활성 메모리가 아직 없습니다 (첫 대화를 관찰한 뒤에 만들어집니다).',
  tokensOfBudget: '토큰 / 예산',
  overBudget: '예산 초과',
  injectionsTitle: '최근 에이전트 주입 (훅, 플러그인, MCP)',
  injectionsNone: 'logs/hooks.log에 아직 기록이 없습니다.',
  heldTitle: '검토 대기: 주입하지 않음',
  heldNote:
    '에이전트를 움직이려는 글이 담긴 관찰입니다 (가짜 메모리 블록 태그, "이전 지시를 무시하라", 시스템 머리말, 모든 권한을 주었다는 주장, 자격 증명이나 파일을 밖으로 보내기, 네트워크에서 받은 코드 실행). 날짜 파일에는 그대로 남지만 활성 메모리, 프롬프트, 검색 답에는 들어가지 않습니다. 여기서 고치거나 잊게 하거나, 기록으로 남겨 두세요.',
  heldNone: '검토할 것이 없습니다: hot 계층의 어떤 관찰도 에이전트에게 내리는 지시처럼 보이지 않습니다.',
  heldWhy: '이유',
  heldDate: '날짜',
  injectionsNote:
    'logs/hooks.log 기준: 세션 시작 때는 활성 메모리가, 프롬프트마다 그 프롬프트로 검색해 관련 있다고 판단한 메모리가 들어갑니다 (id와 프롬프트와의 관련도 0–1; 이전 로그 줄에는 개수만 있습니다).',
  injectedWhat: '들어간 내용 (관련도)',
  injectedChars: '자',
  reflection: '회고',
  tiersTitle: '계층',
  tierFiles: '일별 파일',
  tierBytes: '크기',
  tierOldest: '가장 오래된',
  tierNewest: '가장 최근',
  pendingTitle: '승인을 기다리는 이동',
  pendingNone: '승인을 기다리는 것이 없습니다.',
  approve: '승인',
  reject: '거절',
  approved: '승인함',
  rejected: '거절함',
  auditTitle: '감사 로그 (최신순)',
  auditNone: '감사 로그가 비어 있습니다.',
  rollback: '되돌리기',
  rolledBack: '되돌림',
  rolledBackBy: '되돌린 작업:',
  alreadyForgotten: '이미 잊었습니다 (양식이 두 번 보내졌거나 다른 탭에서 처리함):',
  alreadyApproved: '이미 승인했습니다 (양식이 두 번 보내졌거나 다른 탭에서 처리함):',
  alreadyRejected: '이미 거절했습니다 (양식이 두 번 보내졌거나 다른 탭에서 처리함):',
  notMoved: '옮기지 않았습니다. 바뀐 것은 없습니다:',
  healthTitle: '상태와 수치',
  jobsTitle: '최근 실행',
  job: '작업',
  lastRun: '마지막 실행',
  lastOk: '마지막 성공',
  lastError: '마지막 오류',
  none: '없음',
  sourcesTitle: '소스와 커서',
  streams: '스트림',
  messages: '메시지',
  malformed: '손상',
  lastRead: '마지막 읽기',
  llmTitle: 'LLM 사용량과 비용',
  llmNone: '기록된 LLM 호출이 없습니다 (오프라인 휴리스틱 관찰자는 비용이 없습니다).',
  role: '역할',
  model: '모델',
  inputTokens: '입력 토큰',
  outputTokens: '출력 토큰',
  calls: '호출',
  cost: '비용 (USD)',
  chartsTitle: '차트',
  chartPerDay: '일별 관찰 수',
  chartLlm: '일별 LLM 토큰',
  chartTokens: '토큰 절감: 읽은 대화 토큰 대비 에이전트가 불러오는 양',
  chartSearch: '검색 지연 (ms, 최근 검색)',
  chartDay: '날짜',
  chartWhat: '구분',
  chartSearchNumber: '검색',
  observationCount: '관찰 수',
  transcriptTokens: '읽은 대화 토큰',
  activeTokens: '활성 메모리 토큰',
  efficiency: '압축',
  searchLatency: '검색 p95',
  time: '시각',
  event: '이벤트',
  via: '경로',
  action: '동작',
  op: '작업 id',
  source: '소스',
  cursors: '커서',
  path: '경로',
  cursor: '커서',
  tokens: '토큰',
  fileTitle: '일별 파일',
  errorTitle: '문제가 생겼습니다',
  denied: '`ocm-run ui`가 출력한 주소로 대시보드를 여세요 (이번 실행의 토큰이 들어 있습니다).',
  loginUsed:
    '이 로그인 주소는 이미 사용되었습니다: 한 브라우저에서 한 번만 대시보드를 엽니다. 처음 연 브라우저에서 계속하거나, `ocm-run ui`를 다시 시작해 새 주소를 받으세요.',
  foreignHost: '이 대시보드는 127.0.0.1 / localhost 에만 응답합니다.',
  foreignOrigin: '거부됨: 다른 사이트에서 온 요청입니다.',
  back: '뒤로',
  searchWarning: '검색 참고 (영어 원문):',
  originalMessage: '프로그램이 남긴 원문 (영어):',
};

const TABLES: Record<Lang, Messages> = { en, ko };

/**
 * The words for values the program writes as codes — an audit entry's action and counts, a job's name in
 * state.json, a source's kind, why a move is proposed — looked up by the code (codeWord); a code not here
 * is shown as written (lang="en"). `{days}` is filled in.
 */
export interface CodeWords {
  action: Readonly<Record<string, string>>;
  /** An observation's category as the Observer writes it ([decision] in the day file). */
  category: Readonly<Record<string, string>>;
  count: Readonly<Record<string, string>>;
  job: Readonly<Record<string, string>>;
  source: Readonly<Record<string, string>>;
  why: Readonly<Record<'hot_ttl' | 'warm_ttl' | 'archive', string>>;
  /** Why an observation is held for review (memory/suspicious.ts SuspicionReason). */
  suspicion: Readonly<Record<string, string>>;
}

const enCodes: CodeWords = {
  action: {
    move: 'move',
    propose: 'propose',
    approve: 'approve',
    reject: 'reject',
    rollback: 'rollback',
    abort: 'abort',
    recover: 'recover',
    prune: 'prune',
    forget: 'forget',
    export: 'export',
    sync: 'sync',
  },
  category: { preference: 'preference', decision: 'decision', task: 'task', state: 'state', fact: 'fact', event: 'event' },
  count: { files: 'files', observations: 'observations', bytes: 'bytes' },
  job: { run: 'run', observe: 'observe', reflect: 'reflect', active_memory: 'active_memory', index: 'index', tier: 'tier', sync: 'sync' },
  source: {
    openclaw: 'openclaw',
    'openclaw-db': 'openclaw-db',
    pi: 'pi',
    'claude-code': 'claude-code',
    codex: 'codex',
    generic: 'generic',
    demo: 'demo',
  },
  why: { hot_ttl: 'older than {days} days', warm_ttl: 'older than {days} days', archive: 'archive --older-than {days}' },
  suspicion: {
    'marker-tag': 'holds the memory block’s tag',
    'instruction-override': 'tells the agent to ignore its instructions',
    'role-header': 'poses as a system message',
    'authority-claim': 'claims a blanket authorisation',
    exfiltration: 'sends credentials or files away',
    'remote-code': 'runs code from the network',
  },
};

const koCodes: CodeWords = {
  action: {
    move: '이동',
    propose: '제안',
    approve: '승인',
    reject: '거절',
    rollback: '되돌리기',
    abort: '중단',
    recover: '복구',
    prune: '정리',
    forget: '잊기',
    export: '내보내기',
    sync: '동기화',
  },
  category: { preference: '선호', decision: '결정', task: '할 일', state: '상태', fact: '사실', event: '일어난 일' },
  count: { files: '파일', observations: '관찰', bytes: '바이트' },
  job: {
    run: '전체 실행',
    observe: '관찰 기록',
    reflect: '회고',
    active_memory: '활성 메모리',
    index: '검색 색인',
    tier: '계층 이동',
    sync: '동기화',
  },
  source: {
    openclaw: 'OpenClaw 파일',
    'openclaw-db': 'OpenClaw 데이터베이스',
    pi: 'pi 에이전트',
    'claude-code': 'Claude Code',
    codex: 'Codex',
    generic: '일반 JSONL',
    demo: '데모',
  },
  why: { hot_ttl: '{days}일보다 오래됨', warm_ttl: '{days}일보다 오래됨', archive: '보관 요청: {days}일보다 오래됨' },
  suspicion: {
    'marker-tag': '메모리 블록 태그가 들어 있음',
    'instruction-override': '에이전트에게 지시를 무시하라고 함',
    'role-header': '시스템 메시지인 척함',
    'authority-claim': '모든 권한을 받았다고 주장함',
    exfiltration: '자격 증명이나 파일을 밖으로 보냄',
    'remote-code': '네트워크에서 받은 코드를 실행함',
  },
};

const CODES: Record<Lang, CodeWords> = { en: enCodes, ko: koCodes };

/** The word for a code in `lang`, or undefined when the dashboard has none (the caller shows the code as written). */
export function codeWord(lang: Lang, group: Exclude<keyof CodeWords, 'why'>, code: string): string | undefined {
  const words = CODES[lang][group];
  return Object.hasOwn(words, code) ? words[code] : undefined;
}

/** Why a move is proposed, in `lang`. */
export function whyWords(lang: Lang, why: { code: keyof CodeWords['why']; days: number }): string {
  return CODES[lang].why[why.code].replace('{days}', String(why.days));
}

/**
 * What went wrong, in words a page shows (lib/ui/problems.ts picks one by the error's code and the
 * change being made, never by the error's English text). `{name}` is a detail of this error (an id, a
 * path, a value typed), masked before it is filled in.
 */
export interface ProblemText {
  text: string;
  hint?: string;
}

const enProblems = {
  locked: {
    text: 'Another OC-Memory job is running on this memory home; nothing was changed.',
    hint: 'Wait for it to finish (cron ticks are short), or stop `ocm-run watch`, then do it again. A lock left by a crashed job is recovered automatically.',
  },
  notInFile: {
    text: 'Observation {id} is no longer in {file}; nothing was changed.',
    hint: 'A job or an editor changed the file meanwhile: reload the page.',
  },
  notDayFile: { text: '{file} is not a day file of this memory.', hint: 'Open the observation from the timeline or a search again.' },
  notAFile: { text: '{file} is not a day file or a reflection of this memory.', hint: 'Follow a link from the timeline or a search.' },
  duplicateId: {
    text: '{id} is on {count} lines of {file} (lines {lines}); nothing was changed.',
    hint: 'A line copied in an editor keeps its id: open the file and give the copy another id, or take its `^o-…` away.',
  },
  brokenFrontmatter: {
    text: '{path} has a broken frontmatter block ({problem}); it is not rewritten. Nothing was changed.',
    hint: 'Fix the YAML between the --- lines at the top of that file (or delete the block), then do it again here.',
  },
  emptyText: { text: 'The text is empty.', hint: 'To remove an observation, forget it.' },
  emptyRemember: { text: 'There is no text to remember.', hint: 'Write one sentence to remember.' },
  longRemember: {
    text: 'The text to remember is {count} characters long; at most {max} are kept as one observation. Nothing was remembered.',
    hint: 'Write the one sentence worth keeping, with its concrete details; a long document belongs in a note of your own.',
  },
  badCategory: {
    text: 'Category "{value}" must be one word (letters, digits, - or _).',
    hint: 'For example: decision, preference, task, fact.',
  },
  badMark: { text: '"{value}" is not a mark.', hint: 'Choose current, done or superseded.' },
  badMarkBy: {
    text: '"{value}" is not the id of an observation.',
    hint: "Superseded needs the newer observation's id, like o-7f3a9c21e0 (the ^o-… at the end of its line).",
  },
  badPriority: { text: 'Priority "{value}" is not high, medium or low.', hint: 'Choose high, medium or low.' },
  forgetNotFound: {
    text: 'Not found: {id}; nothing was forgotten.',
    hint: 'It may have been forgotten or edited meanwhile: reload the page.',
  },
  notAProposal: { text: '"{id}" is not a proposal id.', hint: 'Approve or reject a proposal from the Tiers page.' },
  noProposal: {
    text: 'No pending proposal {id}; nothing was moved.',
    hint: 'Reload the Tiers page: it lists the moves that wait for approval.',
  },
  noVault: {
    text: 'No vault is configured for the cold tier; nothing was moved.',
    hint: 'Set tiers.vault_path (`ocm-run config set tiers.vault_path ~/Obsidian/MyVault`), then approve again.',
  },
  noRollback: {
    text: 'There is no move {op} with rollback data; nothing was changed.',
    hint: 'Roll back a move listed in the audit log of the Tiers page.',
  },
  // The words of `ocm-run search` (the address takes the same names: ?since=, ?mode=…).
  badSince: {
    text: '--since "{value}" is not a date.',
    hint: 'Use YYYY-MM-DD (2026-02-12), YYYY-MM, today, yesterday, or a span back from today: 7d, 2w, 3m, 1y.',
  },
  badUntil: {
    text: '--until "{value}" is not a date.',
    hint: 'Use YYYY-MM-DD (2026-02-12), YYYY-MM, today, yesterday, or a span back from today: 7d, 2w, 3m, 1y.',
  },
  datesSwapped: { text: '--since {since} is after --until {until}.', hint: 'Swap the two dates.' },
  badPriorityFilter: {
    text: '--priority "{value}" is not a priority.',
    hint: 'Use high, medium or low (or 🔴 🟡 🟢); several: high,medium.',
  },
  badTier: { text: '--tier "{value}" is not a tier.', hint: 'Use hot, warm or cold (several: hot,warm).' },
  badLimit: { text: '--limit "{value}" is not a number from 1 to 1000.', hint: 'For example 20.' },
  badMode: {
    text: '--mode "{value}" is not a search mode.',
    hint: 'Use text (full text only) or hybrid (with embeddings, when configured; the default).',
  },
  diskFull: { text: 'The disk is full: nothing was written{where}.', hint: 'Free some space and do it again.' },
  permissionDenied: {
    text: 'Permission denied{where}.',
    hint: 'Check the owner and mode of the memory home (directories 0700, files 0600).',
  },
  configInvalid: {
    text: 'The configuration is not valid{where}.',
    hint: 'Fix config.yaml of the memory home (`ocm-run doctor` checks it), then reload the page.',
  },
  noPage: { text: 'There is no page at {path}.', hint: 'Use the links at the top of the page.' },
  // An error the dashboard has no words for: what failed, then the program's own (English) message.
  failedEdit: { text: 'The change was not saved.' },
  failedAdd: { text: 'Nothing was remembered.' },
  failedForget: { text: 'Nothing was forgotten.' },
  failedApprove: { text: 'The move was not approved.' },
  failedReject: { text: 'The move was not rejected.' },
  failedRollback: { text: 'The move was not rolled back.' },
  failedSearch: { text: 'The search failed.' },
  failedPage: { text: 'This page could not be shown.' },
} as const satisfies Record<string, ProblemText>;

export type ProblemKey = keyof typeof enProblems;

const koProblems: Record<ProblemKey, ProblemText> = {
  locked: {
    text: '다른 OC-Memory 작업이 이 메모리 홈에서 실행 중입니다. 아무것도 바꾸지 않았습니다.',
    hint: '그 작업이 끝나기를 기다리거나 (cron 실행은 짧습니다) `ocm-run watch`를 멈춘 뒤 다시 하세요. 비정상 종료된 작업이 남긴 잠금은 자동으로 풀립니다.',
  },
  notInFile: {
    text: '관찰 {id}이(가) 더 이상 {file}에 없습니다. 아무것도 바꾸지 않았습니다.',
    hint: '그 사이 작업이나 편집기가 파일을 바꿨습니다: 페이지를 새로 고치세요.',
  },
  notDayFile: { text: '{file}은(는) 이 메모리의 일별 파일이 아닙니다.', hint: '타임라인이나 검색에서 관찰을 다시 여세요.' },
  notAFile: { text: '{file}은(는) 이 메모리의 일별 파일도 회고도 아닙니다.', hint: '타임라인이나 검색의 링크를 따라가세요.' },
  duplicateId: {
    text: '{id}이(가) {file}의 {count}개 줄 ({lines}번째 줄)에 있습니다. 아무것도 바꾸지 않았습니다.',
    hint: '편집기에서 복사한 줄은 id도 함께 복사됩니다: 파일을 열어 복사본에 다른 id를 주거나 `^o-…`를 지우세요.',
  },
  brokenFrontmatter: {
    text: '{path}의 frontmatter 블록이 깨져 있어{position} 파일을 다시 쓰지 않았습니다. 아무것도 바꾸지 않았습니다.',
    hint: '그 파일 맨 위 --- 줄 사이의 YAML을 고치거나 (또는 블록을 지우고) 여기서 다시 하세요.',
  },
  emptyText: { text: '내용이 비어 있습니다.', hint: '관찰을 없애려면 잊기를 쓰세요.' },
  emptyRemember: { text: '기억할 내용이 없습니다.', hint: '기억할 문장을 하나 쓰세요.' },
  longRemember: {
    text: '기억할 내용이 {count}자입니다. 관찰 하나에는 {max}자까지만 담습니다. 아무것도 기억하지 않았습니다.',
    hint: '간직할 문장 하나를 구체적인 내용과 함께 쓰세요. 긴 문서는 따로 노트에 두세요.',
  },
  badCategory: { text: '분류 "{value}"은(는) 한 단어여야 합니다 (글자, 숫자, - 또는 _).', hint: '예: decision, preference, task, fact.' },
  badMark: { text: '"{value}"은(는) 표시가 아닙니다.', hint: '현재 항목, 완료, 대체됨 중에서 고르세요.' },
  badMarkBy: {
    text: '"{value}"은(는) 관찰의 id가 아닙니다.',
    hint: '대체됨에는 새 관찰의 id가 필요합니다. 예: o-7f3a9c21e0 (줄 끝의 ^o-…).',
  },
  badPriority: { text: '우선순위 "{value}"은(는) high, medium, low 중 하나가 아닙니다.', hint: 'high, medium, low 중에서 고르세요.' },
  forgetNotFound: {
    text: '{id}을(를) 찾지 못했습니다. 아무것도 잊지 않았습니다.',
    hint: '그 사이 잊었거나 편집되었을 수 있습니다: 페이지를 새로 고치세요.',
  },
  notAProposal: { text: '"{id}"은(는) 제안 id가 아닙니다.', hint: '계층 페이지에서 제안을 승인하거나 거절하세요.' },
  noProposal: {
    text: '기다리는 제안 {id}이(가) 없습니다. 아무것도 옮기지 않았습니다.',
    hint: '계층 페이지를 새로 고치세요: 승인을 기다리는 이동이 나옵니다.',
  },
  noVault: {
    text: '콜드 계층의 볼트가 설정되지 않았습니다. 아무것도 옮기지 않았습니다.',
    hint: 'tiers.vault_path를 설정한 뒤 (`ocm-run config set tiers.vault_path ~/Obsidian/MyVault`) 다시 승인하세요.',
  },
  noRollback: {
    text: '되돌릴 데이터가 있는 이동 {op}이(가) 없습니다. 아무것도 바꾸지 않았습니다.',
    hint: '계층 페이지의 감사 로그에 있는 이동을 되돌리세요.',
  },
  badSince: {
    text: '시작일 "{value}"은(는) 날짜가 아닙니다.',
    hint: 'YYYY-MM-DD (2026-02-12), YYYY-MM, today, yesterday, 또는 오늘부터 거슬러 7d, 2w, 3m, 1y 로 쓰세요.',
  },
  badUntil: {
    text: '종료일 "{value}"은(는) 날짜가 아닙니다.',
    hint: 'YYYY-MM-DD (2026-02-12), YYYY-MM, today, yesterday, 또는 오늘부터 거슬러 7d, 2w, 3m, 1y 로 쓰세요.',
  },
  datesSwapped: { text: '시작일 {since}이(가) 종료일 {until}보다 뒤입니다.', hint: '두 날짜를 바꾸세요.' },
  badPriorityFilter: {
    text: '우선순위 "{value}"은(는) 우선순위가 아닙니다.',
    hint: 'high, medium, low (또는 🔴 🟡 🟢) 중에서 고르세요. 여러 개: high,medium.',
  },
  badTier: { text: '계층 "{value}"은(는) 계층이 아닙니다.', hint: 'hot, warm, cold 중에서 고르세요 (여러 개: hot,warm).' },
  badLimit: { text: '개수 "{value}"은(는) 1에서 1000 사이의 수가 아닙니다.', hint: '예: 20.' },
  badMode: {
    text: '방식 "{value}"은(는) 검색 방식이 아닙니다.',
    hint: 'text (전문 검색만) 또는 hybrid (임베딩을 설정했을 때, 기본값) 중에서 고르세요.',
  },
  diskFull: { text: '디스크가 가득 찼습니다: 아무것도 쓰지 않았습니다{where}.', hint: '공간을 비운 뒤 다시 하세요.' },
  permissionDenied: { text: '권한이 없습니다{where}.', hint: '메모리 홈의 소유자와 권한을 확인하세요 (디렉터리 0700, 파일 0600).' },
  configInvalid: {
    text: '설정이 올바르지 않습니다{where}.',
    hint: '메모리 홈의 config.yaml을 고친 뒤 (`ocm-run doctor`가 확인합니다) 페이지를 새로 고치세요.',
  },
  noPage: { text: '{path}에는 페이지가 없습니다.', hint: '페이지 위쪽의 링크를 쓰세요.' },
  failedEdit: { text: '변경을 저장하지 못했습니다.' },
  failedAdd: { text: '기억하지 못했습니다.' },
  failedForget: { text: '잊지 못했습니다.' },
  failedApprove: { text: '이동을 승인하지 못했습니다.' },
  failedReject: { text: '이동을 거절하지 못했습니다.' },
  failedRollback: { text: '이동을 되돌리지 못했습니다.' },
  failedSearch: { text: '검색하지 못했습니다.' },
  failedPage: { text: '이 페이지를 보여 주지 못했습니다.' },
};

const PROBLEMS: Record<Lang, Record<ProblemKey, ProblemText>> = { en: enProblems, ko: koProblems };

/** A problem's words in `lang` with its details filled in (`{name}` → params.name; a detail not given is left out). */
export function problemText(lang: Lang, key: ProblemKey, params: Readonly<Record<string, string>> = {}): ProblemText {
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
  const p = PROBLEMS[lang][key];
  return { text: fill(p.text), ...(p.hint ? { hint: fill(p.hint) } : {}) };
}

export function messagesFor(lang: Lang): Messages {
  return TABLES[lang];
}

/** The language of a request: an explicit choice, else the first of Accept-Language we have. */
export function chooseLang(explicit: string | undefined, acceptLanguage: string | undefined): Lang {
  if (explicit === 'ko' || explicit === 'en') return explicit;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if (code === 'ko' || code === 'en') return code;
  }
  return 'en';
}
