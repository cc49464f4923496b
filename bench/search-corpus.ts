/**
 * A synthetic but realistic memory corpus for the search benchmark: N
 * observations over D days, English and Korean, technical and personal
 * topics, identifiers (env vars, ticket ids, versions, hashes) and names, written
 * as real day files (lib/memory/day-file/) into a memory home. Deterministic (seeded).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { appendObservations, createDayFile, formatDayFile } from '../lib/memory/day-file/index.js';
import { dayFilePath, type HomePaths } from '../lib/platform/home.js';
import { observationId } from '../lib/memory/observation-line.js';
import type { Observation, Priority } from '../lib/core/types.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const W = (s: string) => s.split('|');
const TECH = W(
  'TypeScript|JavaScript|PostgreSQL|Redis|SQLite|Kafka|RabbitMQ|Docker|Kubernetes|Terraform|Ansible|Nginx|Caddy|GraphQL|gRPC|REST|Rust|Go|Python|Django|FastAPI|Flask|React|Vue|Svelte|Next.js|Vite|webpack|esbuild|Jest|Vitest|Playwright|Cypress|Prisma|Drizzle|MongoDB|DynamoDB|S3|CloudFront|Lambda|Cloudflare Workers|Vercel|Fly.io|Grafana|Prometheus|OpenTelemetry|Sentry|Datadog|ElasticSearch|MiniSearch|pnpm|npm|yarn|Bun|Deno|Node 20|Tailwind|Zod|tRPC|Express|Fastify|Hono|NATS|ClickHouse|DuckDB|Parquet|Airflow|dbt|Snowflake|BigQuery|Pandas|Polars|PyTorch|Ollama|OpenAI|Claude|Gemini|LangChain|pgvector|Qdrant|Pinecone|WebSockets|SSE|OAuth|JWT|SAML|Keycloak|Auth0|Stripe|Twilio|SendGrid|GitHub Actions|GitLab CI|ArgoCD|Helm|Istio|Envoy|Consul|Vault',
);
const AREA = W(
  'backend services|the billing pipeline|the mobile app|data ingestion|the admin dashboard|search|authentication|caching|background jobs|the public API|analytics|the CLI|log shipping|feature flags|the payment flow|email delivery|onboarding|notifications|rate limiting|image resizing|the recommendation engine|reporting|CI builds|local development|integration tests|the docs site|observability|the data warehouse|session storage|file uploads',
);
const PROJECT = W(
  'Atlas|Borealis|Cobalt|Dune|Ember|Fjord|Granite|Harbor|Iris|Juniper|Kestrel|Lumen|Meridian|Nimbus|Onyx|Pylon|Quartz|Riverbed|Sable|Tundra|Umbra|Vector|Willow|Xenon|Yarrow|Zephyr|oc-memory|openclaw|the website|the monorepo',
);
const COMPONENT = W(
  'auth service|payment gateway|search indexer|job scheduler|API gateway|user service|notification worker|session store|upload handler|report generator|webhook relay|cache layer|migration runner|config loader|rate limiter|email sender|billing cron|feature flag service|metrics exporter|log parser',
);
const BUG = W(
  'a race condition|a memory leak|an off-by-one error|a timezone bug|a null pointer crash|a deadlock|a slow query|a broken retry loop|a stale cache entry|an encoding bug|a flaky test|a missing index|an unhandled promise rejection|a CORS misconfiguration|a token expiry bug|a double charge|a duplicate webhook',
);
const ENVS = W('staging|production|dev|QA|the canary cluster|eu-west-1|us-east-1|the preview environment');
const ENVVAR = W(
  'POSTGRES_URL|REDIS_URL|DATABASE_URL|OPENAI_API_KEY|SENTRY_DSN|JWT_SECRET|S3_BUCKET|NODE_ENV|LOG_LEVEL|STRIPE_WEBHOOK_SECRET|KAFKA_BROKERS|SMTP_HOST|FEATURE_FLAGS_URL|OCM_HOME|HTTP_PROXY|MAX_WORKERS',
);
const PERSON = W(
  'Alice|Bob|Carol|Dave|Erin|Frank|Grace|Heidi|Ivan|Judy|Mallory|Niaj|Olivia|Peggy|Rupert|Sybil|Trent|Victor|Walter|Yuki|Minji|Jisoo|Hyunwoo|Seojun|Haruto|Wei|Priya|Arjun|Fatima|Lucas|Sofia|Mateo|Chloe|Noah|Emma|Liam',
);
const TOPIC = W(
  'the Q3 roadmap|the hiring plan|the incident review|the database migration|API versioning|the pricing change|the security audit|on-call rotation|the design system|the launch checklist|test coverage|the budget|the vendor contract|the data retention policy|the load test results|the postmortem|the sprint goals|performance regressions|the accessibility review|the GDPR request',
);
const HOBBY = W(
  'hiking|climbing|painting|sourdough baking|chess|running marathons|cycling|photography|playing guitar|gardening|birdwatching|pottery|surfing|yoga|board games|camping|knitting|swimming|skiing|reading sci-fi',
);
const CITY = W(
  'Seoul|Busan|Tokyo|Osaka|Berlin|Lisbon|Paris|London|New York|San Francisco|Vancouver|Sydney|Singapore|Taipei|Barcelona|Prague|Vienna|Copenhagen|Reykjavik|Kyoto',
);
const MONTH = W('January|February|March|April|May|June|July|August|September|October|November|December');
const RELATION = W('sister|brother|wife|husband|daughter|son|mother|father|friend|colleague|manager|neighbor');
const ITEM = W(
  'a standing desk|a mechanical keyboard|a new laptop|noise-cancelling headphones|a 4K monitor|an espresso machine|a road bike|a tent|running shoes|a drone|a camera lens|a houseplant',
);
const STEP = W(
  'write the migration|add integration tests|update the docs|ask for review|benchmark the new version|roll out behind a flag|clean up old branches|profile memory usage|fix the lint errors|tag the release',
);
const TASK = W(
  'the login redesign|the export feature|the retry logic|the new onboarding flow|the search ranking|the invoice PDF|dark mode|the audit log|bulk import|the Slack integration|two-factor authentication|the rate-limit headers',
);

// Korean vocabulary (particles are attached by the templates, as people write).
const TECH_KO = W(
  '데이터베이스|캐시|인증|배포|서버|클라이언트|로그|모니터링|테스트|마이그레이션|백엔드|프론트엔드|쿠버네티스|도커|파이프라인|대시보드|알림|결제|검색|인덱스|스케줄러|웹훅|세션|토큰|설정|환경 변수|빌드|저장소|브랜치|리뷰',
);
const COMPONENT_KO = W(
  '인증 서비스|결제 모듈|검색 엔진|작업 스케줄러|API 게이트웨이|사용자 서비스|알림 워커|세션 저장소|업로드 핸들러|리포트 생성기|캐시 계층|설정 로더',
);
const BUG_KO = W('메모리 누수|경쟁 상태|타임존|널 포인터|교착 상태|느린 쿼리|재시도 루프|인코딩|불안정한 테스트|토큰 만료|중복 결제');
const TOPIC_KO = W(
  '3분기 로드맵|채용 계획|장애 회고|데이터베이스 마이그레이션|API 버전 관리|가격 정책|보안 감사|당직 순번|디자인 시스템|출시 체크리스트|예산|데이터 보존 정책|부하 테스트 결과',
);
const PERSON_KO = W('민지|지수|현우|서준|하윤|도윤|서연|지호|수아|예준|김 팀장|박 부장|이 대리|최 과장');
const HOBBY_KO = W('등산|클라이밍|그림 그리기|빵 굽기|체스|마라톤|자전거|사진|기타 연주|정원 가꾸기|요가|캠핑|수영|스키|독서');
const CITY_KO = W('서울|부산|제주|도쿄|오사카|베를린|리스본|파리|런던|뉴욕|시드니|싱가포르|타이베이|교토');
const MONTH_KO = W('1월|2월|3월|4월|5월|6월|7월|8월|9월|10월|11월|12월');

const TAGS = W(
  'postgres|redis|auth|billing|deploy|incident|meeting|personal|travel|hiring|perf|security|frontend|backend|infra|data|ml|docs|bug|release',
);
const CATEGORIES: Array<[string, number]> = [
  ['fact', 30],
  ['task', 20],
  ['decision', 15],
  ['preference', 10],
  ['state', 10],
  ['event', 15],
];

export interface CorpusOptions {
  observations: number;
  days: number;
  /** Last day of the corpus (YYYY-MM-DD); days go back from it. */
  endDate: string;
  seed?: number;
  /** Share of Korean observations (0..1). */
  korean?: number;
  /** Other agents besides main (each gets a share of the observations). */
  agents?: string[];
}

export function makeGenerator(seed: number) {
  const r = rng(seed);
  // Zipf-ish pick: early items of a list are more frequent.
  const pick = <T>(list: readonly T[]): T => list[Math.min(list.length - 1, Math.floor(list.length * r() ** 1.6))]!;
  const uniform = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(r() * 16)]).join('');
  const ticket = () => `${uniform(['ticket', 'JIRA', 'OPS', 'BUG', 'PR'])}-${int(100, 99999)}`;
  const version = () => `v${int(0, 9)}.${int(0, 30)}.${int(0, 40)}`;
  const en: Array<() => string> = [
    () => `User prefers ${pick(TECH)} over ${pick(TECH)} for ${pick(AREA)}.`,
    () => `Decided to use ${pick(TECH)} for ${pick(AREA)} in ${pick(PROJECT)}.`,
    () => `Fixed ${pick(BUG)} in the ${pick(COMPONENT)} (${ticket()}, commit ${hex(7)}).`,
    () => `Deployed ${pick(PROJECT)} ${version()} to ${pick(ENVS)}.`,
    () => `${pick(PERSON)} asked about ${pick(TOPIC)} for the ${pick(PROJECT)} release.`,
    () => `Set ${pick(ENVVAR)} in the ${pick(ENVS)} environment for the ${pick(COMPONENT)}.`,
    () => `Meeting with ${pick(PERSON)} and ${pick(PERSON)} about ${pick(TOPIC)}; agreed to revisit in ${int(1, 6)} weeks.`,
    () => `User is working on ${pick(TASK)} in ${pick(PROJECT)}; next step: ${pick(STEP)}.`,
    () => `The ${pick(COMPONENT)} times out after ${int(2, 120)} seconds under load; suspect ${pick(BUG)}.`,
    () => `User's ${pick(RELATION)} ${pick(PERSON)} is into ${pick(HOBBY)}.`,
    () => `User plans to visit ${pick(CITY)} in ${pick(MONTH)} with ${pick(PERSON)}.`,
    () => `User bought ${pick(ITEM)} for ${int(20, 2500)} dollars.`,
    () => `Migrated ${pick(AREA)} from ${pick(TECH)} to ${pick(TECH)}; p95 latency went from ${int(80, 900)} ms to ${int(10, 300)} ms.`,
    () => `Code review for ${ticket()}: ${pick(PERSON)} wants more tests around ${pick(AREA)}.`,
    () => `User enjoys ${pick(HOBBY)} on weekends and goes with ${pick(PERSON)}.`,
    () => `Incident ${ticket()}: ${pick(COMPONENT)} returned 5xx for ${int(3, 90)} minutes in ${pick(ENVS)}.`,
  ];
  const ko: Array<() => string> = [
    () => `사용자는 ${pick(TECH)}보다 ${pick(TECH)}를 선호한다.`,
    () => `${pick(PROJECT)} 프로젝트에서 ${pick(TECH_KO)}로 ${pick(TECH)}를 사용하기로 결정했다.`,
    () => `${pick(COMPONENT_KO)}의 ${pick(BUG_KO)} 버그를 수정했다 (${ticket()}).`,
    () => `${pick(ENVS)} 환경에 ${pick(PROJECT)} ${version()}을 배포했다.`,
    () => `${pick(PERSON_KO)}님과 ${pick(TOPIC_KO)}에 대해 회의했다.`,
    () => `${pick(ENVVAR)} 환경 변수를 ${pick(ENVS)} 서버에 설정했다.`,
    () => `${pick(TECH_KO)} 마이그레이션이 ${int(2, 90)}분 걸렸다.`,
    () => `사용자는 ${pick(MONTH_KO)}에 ${pick(CITY_KO)}로 여행을 갈 계획이다.`,
    () => `사용자의 취미는 ${pick(HOBBY_KO)}이고 주말마다 ${pick(PERSON_KO)}와 함께 한다.`,
    () => `${pick(COMPONENT_KO)}에서 ${pick(TECH_KO)} 오류가 발생해서 ${pick(TECH_KO)}을 다시 시작했다.`,
    () => `${pick(TOPIC_KO)}은 다음 주까지 ${pick(PERSON_KO)}에게 공유하기로 했다.`,
    () => `${pick(TECH)} ${pick(TECH_KO)} 설정은 ${pick(ENVS)}에서만 사용한다.`,
  ];
  const priority = (): Priority => {
    const x = r();
    return x < 0.2 ? 'high' : x < 0.7 ? 'medium' : 'low';
  };
  const category = (): string => {
    let x = r() * 100;
    for (const [c, w] of CATEGORIES) {
      x -= w;
      if (x < 0) return c;
    }
    return 'fact';
  };
  return {
    r,
    int,
    text(korean: number): string {
      return r() < korean ? uniform(ko)() : uniform(en)();
    },
    priority,
    category,
    tags(): string[] {
      const n = r() < 0.5 ? 0 : r() < 0.7 ? 1 : 2;
      const out = new Set<string>();
      for (let i = 0; i < n; i++) out.add(pick(TAGS));
      return [...out];
    },
    hex,
  };
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Observations of one day (sorted by time), for `agent`. */
export function dayObservations(
  gen: ReturnType<typeof makeGenerator>,
  date: string,
  agent: string,
  count: number,
  korean: number,
): Observation[] {
  const out: Observation[] = [];
  const session = gen.hex(8);
  const minutes = Array.from({ length: count }, () => gen.int(0, 24 * 60 - 1)).sort((a, b) => a - b);
  for (let i = 0; i < count; i++) {
    const text = gen.text(korean);
    const category = gen.category();
    const m = minutes[i]!;
    out.push({
      id: observationId({ agent, session, category, text, salt: `${date}:${i}` }),
      date,
      time: `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
      priority: gen.priority(),
      done: category === 'task' && gen.r() < 0.3,
      category,
      text,
      tags: gen.tags(),
      agent,
      provenance: { source: 'openclaw', agent, session, entryIds: [gen.hex(8), gen.hex(8)] },
    });
  }
  return out;
}

export function dayFileText(date: string, agent: string, observations: Observation[]): string {
  const file = createDayFile({ date, agent, tier: 'hot' });
  appendObservations(file, observations);
  return formatDayFile(file);
}

/** Write the corpus into `paths.memory` (hot tier). Returns the files written and the observation count. */
export async function writeCorpus(
  paths: HomePaths,
  options: CorpusOptions,
): Promise<{ files: string[]; observations: number; dates: string[] }> {
  const gen = makeGenerator(options.seed ?? 42);
  const agents = ['main', ...(options.agents ?? [])];
  const perDay = options.observations / options.days;
  const files: string[] = [];
  const dates: string[] = [];
  let total = 0;
  for (let d = options.days - 1; d >= 0; d--) {
    const date = addDays(options.endDate, -d);
    dates.push(date);
    const dayTarget = Math.round(perDay * (options.days - d)) - total;
    const counts = agents.map((_, a) => Math.round(dayTarget * (agents.length === 1 ? 1 : a === 0 ? 0.7 : 0.3 / (agents.length - 1))));
    counts[counts.length - 1]! += dayTarget - counts.reduce((x, y) => x + y, 0);
    for (let a = 0; a < agents.length; a++) {
      const agent = agents[a]!;
      const count = counts[a]!;
      if (count <= 0) continue;
      const path = dayFilePath(paths, 'hot', agent, date);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, dayFileText(date, agent, dayObservations(gen, date, agent, count, options.korean ?? 0.3)));
      files.push(path);
      total += count;
    }
  }
  return { files, observations: total, dates };
}

export { addDays };
