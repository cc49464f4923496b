/**
 * Writes the bundled demo transcripts: an OpenClaw file-era state dir
 * (pi session format v3, DESIGN §5) under samples/openclaw/.
 *
 *   agents/main/sessions/sessions.json
 *   agents/main/sessions/<A>.jsonl.reset.<ts>   day 1, renamed by /reset
 *   agents/main/sessions/<B>.jsonl              auth, deadline, a fix (English)
 *   agents/main/sessions/<C>.jsonl              Korean session
 *   agents/main/sessions/<D>.jsonl              Telegram: the novel, async/await
 *   agents/work/sessions/sessions.json, <W>.jsonl   a second agent
 *
 * A developer (Dana, Berlin, also writes a novel) builds "ledger-api". The
 * transcripts carry what the pipeline must handle: tool calls and results,
 * a thinking block, delivery-mirror copies, a "[Fri 2026-04-10 16:30 CEST] "
 * prefix, an untrusted-metadata block, a model change, and pasted secrets
 * (an sk-proj- key, a password=) that masking must catch.
 *
 * Deterministic: ids are hashes of (session, index); run it again and the
 * files are byte-identical. Usage: node --import tsx samples/make-samples.ts
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> };

type Step =
  | { at: string; user: string | Block[] }
  | { at: string; assistant: Block[] | string; stop?: 'stop' | 'toolUse'; mirror?: boolean }
  | { at: string; tool: string; callId: string; result: string; isError?: boolean }
  | { at: string; modelChange: string }
  | { at: string; thinkingLevel: string };

interface SessionSpec {
  id: string;
  cwd: string;
  start: string;
  steps: Step[];
}

const MODEL = { provider: 'anthropic', model: 'claude-sonnet-4-5' };

function hex8(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, 8);
}

function uuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function usage(input: number, output: number) {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function text(t: string): Block {
  return { type: 'text', text: t };
}

/** Serialise one session as pi v3 JSONL lines (header + a parentId chain). */
function render(spec: SessionSpec): string {
  const lines: string[] = [JSON.stringify({ type: 'session', version: 3, id: spec.id, timestamp: spec.start, cwd: spec.cwd })];
  let parent: string | null = null;
  spec.steps.forEach((step, i) => {
    const id = hex8(`${spec.id}:${i}`);
    const base = { id, parentId: parent, timestamp: step.at };
    const ms = Date.parse(step.at);
    let entry: Record<string, unknown>;
    if ('user' in step) {
      const content = typeof step.user === 'string' ? [text(step.user)] : step.user;
      entry = { type: 'message', ...base, message: { role: 'user', content, timestamp: ms } };
    } else if ('assistant' in step) {
      const content = typeof step.assistant === 'string' ? [text(step.assistant)] : step.assistant;
      const words = JSON.stringify(content).length;
      if (step.mirror) {
        entry = {
          type: 'message',
          ...base,
          message: {
            role: 'assistant',
            content,
            provider: 'openclaw',
            model: 'delivery-mirror',
            usage: usage(0, 0),
            stopReason: 'stop',
            timestamp: ms,
          },
        };
      } else {
        const stopReason = step.stop ?? (content.some((b) => b.type === 'toolCall') ? 'toolUse' : 'stop');
        entry = {
          type: 'message',
          ...base,
          message: {
            role: 'assistant',
            content,
            api: 'anthropic-messages',
            ...MODEL,
            usage: usage(1200 + i * 37, Math.ceil(words / 4)),
            stopReason,
            timestamp: ms,
          },
        };
      }
    } else if ('tool' in step) {
      entry = {
        type: 'message',
        ...base,
        message: {
          role: 'toolResult',
          toolCallId: step.callId,
          toolName: step.tool,
          content: [text(step.result)],
          isError: step.isError ?? false,
          timestamp: ms,
        },
      };
    } else if ('modelChange' in step) {
      entry = { type: 'model_change', ...base, provider: MODEL.provider, modelId: step.modelChange };
    } else {
      entry = { type: 'thinking_level_change', ...base, thinkingLevel: step.thinkingLevel };
    }
    lines.push(JSON.stringify(entry));
    parent = id;
  });
  return `${lines.join('\n')}\n`;
}

const CWD = '/home/dana/code/ledger-api';

// Session A — Monday 2026-04-06 (Berlin, CEST = UTC+2). Renamed by /reset at the end.
const A: SessionSpec = {
  id: uuid('ledger-api:day1'),
  cwd: CWD,
  start: '2026-04-06T07:09:58.214Z',
  steps: [
    { at: '2026-04-06T07:09:58.300Z', modelChange: 'claude-sonnet-4-5' },
    { at: '2026-04-06T07:09:58.310Z', thinkingLevel: 'low' },
    {
      at: '2026-04-06T07:10:05.118Z',
      user: "Hi! I'm starting a side project called ledger-api, a small bookkeeping service for freelancers. I prefer TypeScript over JavaScript for backend services, so set it up with Node 20 and strict mode.",
    },
    {
      at: '2026-04-06T07:10:41.502Z',
      assistant: [
        { type: 'thinking', thinking: 'Dana wants strict TypeScript on Node 20. Scaffold tsconfig first, then ask about storage.' },
        text(
          "Good call: strict TypeScript catches a lot of mistakes early. I'll scaffold the project with a strict tsconfig targeting ES2022.",
        ),
        {
          type: 'toolCall',
          id: 'toolu_01',
          name: 'write',
          arguments: {
            path: 'tsconfig.json',
            content: '{\n  "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext" }\n}\n',
          },
        },
      ],
    },
    { at: '2026-04-06T07:10:42.020Z', tool: 'write', callId: 'toolu_01', result: 'Successfully wrote 96 bytes to tsconfig.json' },
    {
      at: '2026-04-06T07:11:02.877Z',
      assistant: 'The tsconfig is in place with strict mode and ES2022 output. Which database do you want for the ledger?',
    },
    {
      at: '2026-04-06T07:14:30.450Z',
      user: "For the database, we'll use PostgreSQL as the main store and Redis for caching and rate limiting. No MongoDB for this one.",
    },
    {
      at: '2026-04-06T07:15:09.961Z',
      assistant: [
        text(
          'Noted: PostgreSQL 16 for the ledger tables, Redis for the cache and rate limits. I suggest Drizzle for migrations, since it keeps the schema in TypeScript.',
        ),
        { type: 'toolCall', id: 'toolu_02', name: 'bash', arguments: { command: 'docker compose up -d postgres redis' } },
      ],
    },
    {
      at: '2026-04-06T07:15:14.233Z',
      tool: 'bash',
      callId: 'toolu_02',
      result: 'Container ledger-postgres  Started\nContainer ledger-redis  Started',
    },
    {
      at: '2026-04-06T07:15:14.900Z',
      assistant:
        'Noted: PostgreSQL 16 for the ledger tables, Redis for the cache and rate limits. I suggest Drizzle for migrations, since it keeps the schema in TypeScript.',
      mirror: true,
    },
    {
      at: '2026-04-06T07:20:12.640Z',
      user: 'Here is the OpenAI key for the receipt parser: sk-proj-Q3vX9kLm2Rt7Yp4Wz8Nb1Cd5Fg6Hj0Ks3Lq9Mv2Xc7Bn4Tz — put it in .env please.',
    },
    {
      at: '2026-04-06T07:20:40.018Z',
      assistant: [
        {
          type: 'toolCall',
          id: 'toolu_03',
          name: 'edit',
          arguments: { path: '.env', append: 'OPENAI_API_KEY=sk-proj-Q3vX9kLm2Rt7Yp4Wz8Nb1Cd5Fg6Hj0Ks3Lq9Mv2Xc7Bn4Tz' },
        },
      ],
    },
    { at: '2026-04-06T07:20:40.410Z', tool: 'edit', callId: 'toolu_03', result: 'Edited .env (1 line added)' },
    {
      at: '2026-04-06T07:20:55.731Z',
      assistant:
        'I added OPENAI_API_KEY to .env and checked that .env is in .gitignore. Please rotate that key later, since it was pasted into the chat.',
    },
  ],
};
const A_RESET_STAMP = '2026-04-06T07-31-02.512Z';

// Session B — the active main session, Tuesday and Wednesday.
const B: SessionSpec = {
  id: uuid('ledger-api:auth'),
  cwd: CWD,
  start: '2026-04-07T08:01:47.003Z',
  steps: [
    {
      at: '2026-04-07T08:02:10.251Z',
      user: "Morning! How do I validate JWT refresh tokens? Access tokens are short-lived, but I'm not sure where to keep the refresh tokens.",
    },
    {
      at: '2026-04-07T08:02:58.730Z',
      assistant: [
        {
          type: 'thinking',
          thinking: 'Classic refresh token rotation question. Recommend opaque tokens, hashed at rest, rotation with reuse detection.',
        },
        text(
          'Keep access tokens short: 15 minutes is common. Make refresh tokens opaque random strings rather than JWTs, and store only a SHA-256 hash of each one in Redis with a 30-day TTL.\n\n' +
            'Rotate the refresh token on every use. If an old token is presented again, revoke the whole token family, because reuse means it was stolen.',
        ),
      ],
    },
    {
      at: '2026-04-07T08:10:19.004Z',
      user: "Makes sense. Let's go with rotating opaque refresh tokens in Redis and 15-minute access tokens.",
    },
    {
      at: '2026-04-07T08:12:44.387Z',
      user: "Also, the demo for the accountants' meetup is on Friday, so login and the invoice export must work by Thursday evening.",
    },
    {
      at: '2026-04-07T08:13:05.122Z',
      assistant: "Got it, a Friday demo. I'll do the login flow first and the invoice export second.",
    },
    {
      at: '2026-04-08T13:40:31.906Z',
      user: 'Staging migrations fail. The staging DB login is ledger with password=Tr0ub4dor-staging-77 if you need it.',
    },
    {
      at: '2026-04-08T13:41:02.215Z',
      assistant: [
        { type: 'toolCall', id: 'toolu_11', name: 'bash', arguments: { command: 'npx drizzle-kit migrate --config drizzle.staging.ts' } },
      ],
    },
    {
      at: '2026-04-08T13:41:09.840Z',
      tool: 'bash',
      callId: 'toolu_11',
      result: 'error: relation "invoices" already exists\n    at migration 0003_invoices.sql',
      isError: true,
    },
    {
      at: '2026-04-08T13:41:40.377Z',
      assistant:
        'The migration fails because the invoices table already exists on staging, probably from an earlier manual CREATE TABLE. I will mark migration 0003 as applied and run the rest.',
    },
    {
      at: '2026-04-08T15:05:12.660Z',
      user: 'Fixed it! Migrations run cleanly on staging now, and the login flow works end to end.',
    },
    { at: '2026-04-08T15:05:30.019Z', assistant: 'Great. Login is done; the invoice export is next.' },
  ],
};

// Session C — Korean, Thursday morning.
const C: SessionSpec = {
  id: uuid('ledger-api:ko'),
  cwd: CWD,
  start: '2026-04-09T06:58:00.000Z',
  steps: [
    { at: '2026-04-09T06:58:11.402Z', user: '안녕하세요!' },
    { at: '2026-04-09T06:58:13.950Z', assistant: '안녕하세요! 무엇을 도와드릴까요?' },
    { at: '2026-04-09T06:59:40.118Z', user: '저는 자바스크립트보다 타입스크립트를 선호해요. 테스트는 Vitest로 하기로 했어요.' },
    {
      at: '2026-04-09T07:00:05.731Z',
      assistant: '알겠습니다. Vitest로 단위 테스트를 구성하고 CI에서는 GitHub Actions로 실행하겠습니다.',
    },
    { at: '2026-04-09T07:02:26.004Z', user: '다음 주 금요일까지 회계사 모임 발표 자료를 준비해야 해요.' },
    { at: '2026-04-09T07:03:51.290Z', user: '그리고 async/await가 아직 너무 헷갈려요. 에러 처리는 어떻게 하나요?' },
    {
      at: '2026-04-09T07:04:30.845Z',
      assistant:
        'await 호출을 try/catch로 감싸면 됩니다. 여러 작업을 함께 기다릴 때는 Promise.allSettled를 쓰면 하나가 실패해도 나머지 결과를 받을 수 있어요.',
    },
    { at: '2026-04-09T09:15:02.557Z', user: '인보이스 내보내기 기능 구현 완료했어요! 감사합니다.' },
  ],
};

// Session D — Telegram: the novel (Thursday evening) and async/await (Friday).
const D: SessionSpec = {
  id: uuid('ledger-api:telegram'),
  cwd: '/home/dana',
  start: '2026-04-09T19:29:50.000Z',
  steps: [
    {
      at: '2026-04-09T19:30:03.771Z',
      user:
        'Conversation info (untrusted metadata):\n```json\n{"channel":"telegram","chat_id":"48213377","sender":"Dana K.","is_group":false}\n```\n\n' +
        "Switching hats: I'm also writing a novel in the evenings. Keep this straight for me: Mira's eyes are grey-green, and her brother Tomas keeps the lighthouse at Cabo da Roca.",
    },
    {
      at: '2026-04-09T19:30:20.118Z',
      assistant:
        'Noted for the novel: Mira has grey-green eyes, and her brother Tomas is the lighthouse keeper at Cabo da Roca. Shall I start a character sheet?',
    },
    {
      at: '2026-04-09T19:30:20.500Z',
      assistant:
        'Noted for the novel: Mira has grey-green eyes, and her brother Tomas is the lighthouse keeper at Cabo da Roca. Shall I start a character sheet?',
      mirror: true,
    },
    {
      at: '2026-04-10T14:30:08.245Z',
      user: "[Fri 2026-04-10 16:30 CEST] I'm still struggling with async/await. Why does my forEach loop finish before the awaits inside it are done?",
    },
    {
      at: '2026-04-10T14:30:41.902Z',
      assistant: [
        { type: 'thinking', thinking: 'forEach does not await returned promises. Explain for...of vs Promise.all with a short example.' },
        text(
          'Because forEach ignores the promises your callback returns: it starts every callback and returns at once. Use a for...of loop with await inside for sequential work, or await Promise.all(items.map(...)) to run them in parallel.\n\n' +
            '```ts\nfor (const invoice of invoices) {\n  await exportInvoice(invoice);\n}\n```',
        ),
      ],
    },
    {
      at: '2026-04-10T14:33:15.006Z',
      user: "That finally clicks. I'll rewrite the export job with for...of tonight, before the demo.",
    },
  ],
};

// Agent "work": a second agent with its own short session.
const W: SessionSpec = {
  id: uuid('work:q2-report'),
  cwd: '/home/dana/work',
  start: '2026-04-06T12:00:00.000Z',
  steps: [
    {
      at: '2026-04-06T12:00:14.309Z',
      user: 'For the Q2 ops report at work: we decided to use Grafana for the dashboards instead of Kibana.',
    },
    {
      at: '2026-04-06T12:00:39.550Z',
      assistant: 'Noted: Grafana replaces Kibana for the ops dashboards. Do you want me to draft the panel list?',
    },
    {
      at: '2026-04-06T12:02:03.118Z',
      user: 'Yes please. The report is due next Wednesday, and Priya owns the latency section.',
    },
  ],
};

function updatedAt(spec: SessionSpec): number {
  return Date.parse(spec.steps.at(-1)!.at);
}

async function main(): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), 'openclaw');
  await rm(root, { recursive: true, force: true });
  const main = join(root, 'agents', 'main', 'sessions');
  const work = join(root, 'agents', 'work', 'sessions');
  await mkdir(main, { recursive: true });
  await mkdir(work, { recursive: true });

  await writeFile(join(main, `${A.id}.jsonl.reset.${A_RESET_STAMP}`), render(A));
  for (const spec of [B, C, D]) await writeFile(join(main, `${spec.id}.jsonl`), render(spec));
  await writeFile(join(work, `${W.id}.jsonl`), render(W));

  const mainIndex = {
    'agent:main:main': {
      sessionId: B.id,
      updatedAt: updatedAt(B),
      sessionFile: join('agents', 'main', 'sessions', `${B.id}.jsonl`),
      chatType: 'direct',
    },
    'agent:main:webchat:ko': { sessionId: C.id, updatedAt: updatedAt(C), chatType: 'direct', lastChannel: 'webchat' },
    'agent:main:telegram:direct:48213377': { sessionId: D.id, updatedAt: updatedAt(D), chatType: 'direct', lastChannel: 'telegram' },
  };
  const workIndex = { 'agent:work:main': { sessionId: W.id, updatedAt: updatedAt(W), chatType: 'direct' } };
  await writeFile(join(main, 'sessions.json'), `${JSON.stringify(mainIndex, null, 2)}\n`);
  await writeFile(join(work, 'sessions.json'), `${JSON.stringify(workIndex, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
