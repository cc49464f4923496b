/**
 * `ocm-run ui` in a real browser: Debian's chromium driven by playwright-core
 * clicks through the dashboard of real homes served by the built CLI, and the
 * Markdown files are read back afterwards. Screenshots of every page go to
 * test-output/ui/ (docs/dashboard.md shows a few of them).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runCli, tempDir } from '../helpers/cli.js';
import { embeddingServer, filesContaining, secretHome } from '../helpers/forget-home.js';
import { hashTree, newHome, spread, writeHot } from '../helpers/tier-home.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing, screenshotDir, startUi, type RunningUi } from '../helpers/ui-server.js';
import { readApprovals } from '../../lib/tiers/approvals.js';
import { readAudit } from '../../lib/tiers/audit.js';

const skip = chromiumMissing();
if (skip) process.stderr.write(`ui-dashboard.test.ts: ${skip}\n`);

const TODAY = new Date().toISOString().slice(0, 10);
const PLANTED_SECRET = 'sk-proj-Q3vX9kLm2Rt7Yp4Wz8Nb1Cd5Fg6Hj0Ks3Lq9Mv2Xc7Bn4Tz';

let browser: Browser | undefined;
let shots = '';

before(async () => {
  if (skip) return;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 120_000 });
  shots = await screenshotDir();
});
after(async () => {
  await browser?.close();
});

/** Every address a page asked for (offline: all of them must be the dashboard's own). */
const requested = new WeakMap<Page, string[]>();

async function newPage(): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const urls: string[] = [];
  requested.set(page, urls);
  page.on('request', (r) => urls.push(r.url()));
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(120_000);
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
}

/** A raw HTTP request with any Host / Origin (a browser cannot forge Host: that is the point). */
function rawRequest(
  ui: RunningUi,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body = '',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: ui.port,
        path,
        method,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: 60_000,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path} within 60 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

test('dashboard on the demo home: timeline, the line in the day file, search, an edit read back byte for byte, pin, done, remember, masking, refused requests', {
  skip,
  timeout: 15 * 60_000,
}, async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const home = join(dir, 'demo');
  const demo = await runCli(['demo', '--home', home]);
  assert.equal(demo.code, 0, demo.stderr);
  // A secret a user pasted into a day file by hand: it must never reach a page.
  const dayFiles = (await readdir(join(home, 'memory'))).filter((n) => n.endsWith('.md')).sort();
  const planted = join(home, 'memory', dayFiles[0]!);
  await appendFile(planted, `- 🔴 23:59 [fact] The staging key is ${PLANTED_SECRET} ^o-0123456789\n`);
  const ui = await startUi(home);
  t.after(() => ui.stop());
  const page = await newPage();
  const html = async () => page.content();

  await t.test('refused: no token, a foreign Host (DNS rebinding), a foreign Origin (CSRF); no CORS', async () => {
    const noToken = await page.goto(`${ui.origin}/`);
    assert.equal(noToken!.status(), 401);
    assert.doesNotMatch(await html(), /PostgreSQL/, 'nothing of the memory without the token');
    await shot(page, 'refused-no-token');
    // The page logs in with the printed address (its one-time token), and keeps the session cookie.
    assert.equal((await page.goto(ui.url))!.status(), 200);
    const session = (await page.context().cookies()).find((c) => c.name === `ocm_ui_${ui.port}`)!;
    const cookie = `${session.name}=${session.value}`;
    const rebinding = await rawRequest(ui, '/', { host: `evil.example:${ui.port}`, cookie });
    assert.equal(rebinding.status, 403);
    assert.doesNotMatch(rebinding.body, /PostgreSQL/);
    const tokenInUrl = await rawRequest(ui, new URL(ui.url).pathname + new URL(ui.url).search, { host: `evil.example:${ui.port}` });
    assert.equal(tokenInUrl.status, 403, 'even with the token, a foreign Host is refused');
    const before = await hashTree([home], { skip: (rel) => rel.startsWith('logs') });
    const csrf = await rawRequest(
      ui,
      '/observation/add',
      { host: `127.0.0.1:${ui.port}`, origin: 'http://evil.example', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      'POST',
      'text=planted+by+another+site&priority=high&category=fact&agent=main',
    );
    assert.equal(csrf.status, 403);
    const noOrigin = await rawRequest(
      ui,
      '/observation/add',
      { host: `127.0.0.1:${ui.port}`, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      'POST',
      'text=planted+without+origin&priority=high&category=fact&agent=main',
    );
    assert.equal(noOrigin.status, 403, 'a change without an Origin is refused');
    assert.deepEqual(await hashTree([home], { skip: (rel) => rel.startsWith('logs') }), { ...before }, 'nothing was written');
    const ok = await rawRequest(ui, '/', { host: `127.0.0.1:${ui.port}`, cookie, origin: 'http://evil.example' });
    assert.equal(ok.status, 403, 'a read from another origin is refused too');
    const same = await rawRequest(ui, '/', { host: `localhost:${ui.port}`, cookie });
    assert.equal(same.status, 200);
    assert.ok(!/access-control-allow/i.test(JSON.stringify(same)), 'no CORS header');
  });

  await t.test('timeline: days, agents, provenance, the link to the line, filters, masking', async () => {
    const r = await page.goto(ui.url);
    assert.equal(r!.status(), 200);
    assert.equal(new URL(page.url()).searchParams.get('token'), null, 'the token leaves the address bar');
    const text = await html();
    assert.match(text, /TypeScript over JavaScript/);
    assert.match(text, /grey-green/);
    assert.ok((await page.locator('section.day').count()) >= 4, 'one section per day');
    assert.match(text, /class="agent">work</, "the work agent's observations are there");
    assert.match(text, /from openclaw · main · session/, 'provenance: source, agent, session');
    assert.ok(!text.includes(PLANTED_SECRET) && !text.includes('Q3vX9kLm2Rt7'), 'the pasted key never reaches the page');
    assert.match(text, /The staging key is \[REDACTED/);
    await shot(page, 'timeline');
    // The link to the line of an observation in its day file.
    const item = page.locator('li.obs', { hasText: 'TypeScript over JavaScript' }).first();
    const line = Number(await item.getAttribute('data-line'));
    const file = (await item.getAttribute('data-file'))!;
    await item.locator('a.fileline').click();
    await page.waitForURL(/\/file\?path=/);
    assert.equal(new URL(page.url()).hash, `#L${line}`);
    const lineText = await page.locator(`li#L${line}`).textContent();
    assert.equal(lineText, (await readFile(join(home, file), 'utf8')).split('\n')[line - 1]);
    assert.match(lineText!, /TypeScript over JavaScript/);
    await shot(page, 'day-file');
    // Filters: high priority, agent work.
    await page.goto(`${ui.origin}/?priority=high&agent=work`);
    const agents = await page.locator('li.obs .agent').allTextContents();
    assert.ok(agents.length > 0 && agents.every((a) => a === 'work'));
    assert.ok(await page.locator('li.obs').evaluateAll((els) => els.every((e) => e.classList.contains('priority-high'))));
  });

  await t.test('search: the same engine as `ocm-run search`, highlighted', async () => {
    await page.goto(`${ui.origin}/search`);
    await page.keyboard.press('Escape');
    await page.locator('input[name=q]').fill('PostgreSQL');
    await page.keyboard.press('Enter');
    await page.waitForSelector('p.summary');
    const ids = await page.locator('ul.results li.obs').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    const cli = JSON.parse((await runCli(['search', 'PostgreSQL', '--json', '--home', home])).stdout) as { results: Array<{ id: string }> };
    assert.ok(ids.length > 0);
    assert.deepEqual(
      ids,
      cli.results.map((r) => r.id),
      'the same results in the same order as the CLI',
    );
    const marks = await page.locator('ul.results mark').allTextContents();
    assert.ok(marks.length > 0 && marks.every((m) => /postgres/i.test(m)), `highlighted: ${marks.join(', ')}`);
    await shot(page, 'search');
  });

  await t.test('edit with the keyboard: the day file changes in that one line, byte for byte', async () => {
    await page.goto(`${ui.origin}/?agent=main`);
    const first = page.locator('li.obs').first();
    const id = (await first.getAttribute('data-id'))!;
    const file = join(home, (await first.getAttribute('data-file'))!);
    const line = Number(await first.getAttribute('data-line'));
    const before = await readFile(file, 'utf8');
    const original = before.split('\n')[line - 1]!;
    const time = /^- \S+ (\d\d:\d\d) /u.exec(original)?.[1];
    const tags = [...original.matchAll(/ #([^\s#^]+)/g)].map((m) => m[1]);
    // j selects the first observation, e opens its editor.
    await page.locator('body').press('j');
    await page.keyboard.press('e');
    await page.waitForURL(/\/observation\?/);
    await shot(page, 'edit');
    const newText = '사용자는 백엔드 서비스에 TypeScript를 선호한다 (edited in the dashboard).';
    await page.locator('textarea[name=text]').fill(newText);
    await page.locator('select[name=priority]').selectOption('low');
    await page.locator('input[name=category]').fill('decision');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('p.notice');
    const after = await readFile(file, 'utf8');
    const expectedLine = `- 🟢${time ? ` ${time}` : ''} [decision] ${newText}${tags.map((t) => ` #${t}`).join('')} ^${id}`;
    const expected = before.split('\n');
    expected[line - 1] = expectedLine;
    assert.equal(after, expected.join('\n'), 'only that line changed, written as the program writes a line');
    // Searchable at once, in Korean.
    await page.goto(`${ui.origin}/search?q=${encodeURIComponent('백엔드')}`);
    assert.ok((await page.locator(`ul.results li.obs[data-id="${id}"]`).count()) === 1, 'the edit is in the index at once');
    assert.match((await page.locator('ul.results mark').first().textContent())!, /백엔드/);
    await shot(page, 'search-korean');

    // Pin and done: a tag and a ✅ on the same line.
    await page.goto(`${ui.origin}/?agent=main`);
    const item = page.locator(`li.obs[data-id="${id}"]`);
    await item.getByRole('button', { name: 'Pin' }).click();
    await page.waitForSelector('p.notice');
    await page.locator(`li.obs[data-id="${id}"]`).getByRole('button', { name: 'Mark done' }).click();
    await page.waitForSelector('p.notice');
    const pinned = (await readFile(file, 'utf8')).split('\n')[line - 1]!;
    assert.equal(pinned, `- ✅ 🟢${time ? ` ${time}` : ''} [decision] ${newText}${[...tags, 'pin'].map((t) => ` #${t}`).join('')} ^${id}`);
    assert.match(await page.locator(`li.obs[data-id="${id}"]`).innerHTML(), /pinned/);
  });

  await t.test("remember this: a new observation in today's day file, secrets masked", async () => {
    await page.goto(`${ui.origin}/?lang=ko`);
    assert.match(await html(), /타임라인/, 'Korean');
    await page.locator('details.add summary').click();
    const add = page.locator('details.add');
    await add.locator('textarea[name=text]').fill(`회의실 예약은 금요일 오후 3시로 정했다. password=hunter2hunter2`);
    await add.locator('select[name=priority]').selectOption('medium');
    await add.locator('input[name=category]').fill('decision');
    await add.locator('input[name=tags]').fill('#meeting 회의');
    await page.getByRole('button', { name: '메모리에 저장' }).click();
    await page.waitForSelector('p.notice');
    // After saving: the page shows the new observation as written, its password masked.
    await shot(page, 'timeline-ko');
    const today = await readFile(join(home, 'memory', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8').catch(async () => {
      // The home's time zone may already be on another date than UTC.
      const names = (await readdir(join(home, 'memory'))).filter((n) => n.endsWith('.md')).sort();
      return readFile(join(home, 'memory', names.at(-1)!), 'utf8');
    });
    const added = today.split('\n').find((l) => l.includes('회의실 예약'));
    assert.ok(added, 'the line is in the day file');
    assert.match(
      added!,
      /^- 🟡 \d\d:\d\d \[decision\] 회의실 예약은 금요일 오후 3시로 정했다\. password=\[REDACTED[^\]]*\] \(비밀번호는 가렸음: [^)]*\) #meeting #회의 \^o-[0-9a-f]+$/,
    );
    assert.ok(!today.includes('hunter2'), 'the password was masked before it was written');
  });

  await t.test('active memory: its tokens against the budget, and which memories the last prompt hook put in', async () => {
    const hook = await runCli(['hook', 'prompt', '--home', home], {
      input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'Which database did we choose for ledger-api, PostgreSQL?' }),
    });
    assert.equal(hook.code, 0, hook.stderr);
    const injectedIds = [...hook.stdout.matchAll(/\((o-[0-9a-f]+)\)/g)].map((m) => m[1]);
    assert.ok(injectedIds.length > 0, `the hook injected memories: ${hook.stdout}`);
    await page.goto(`${ui.origin}/active?lang=en`);
    const header = /· (\d+) \/ (\d+) tokens/.exec(await readFile(join(home, 'active_memory.md'), 'utf8'));
    assert.ok(header, 'active_memory.md states its token count');
    assert.equal(await page.locator('section.active [data-tokens]').first().getAttribute('data-tokens'), header![1]);
    assert.match(
      (await page.locator('section.active p.tokens').first().textContent())!,
      new RegExp(`${header![1]} tokens of a budget of ${header![2]}`),
    );
    const shown = await page.locator('table a code').allTextContents();
    assert.deepEqual(shown, injectedIds, 'the injected memories, by id, in the order they went in');
    await shot(page, 'active');
  });
});

test('forget in the dashboard leaves no trace: day files of every tier, rollback copies, reflections, logs, index, vectors, caches, active memory', {
  skip,
  timeout: 15 * 60_000,
}, async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const server = await embeddingServer();
  t.after(() => server.close());
  const { paths, secrets, needles, everywhere } = await secretHome(dir, server.url, TODAY);
  const before = await filesContaining(everywhere, needles);
  assert.ok(
    before.some((p) => p.includes('.ocm/ops/')) &&
      before.some((p) => p.endsWith('active_memory.md')) &&
      before.some((p) => p.includes('.ocm/index')),
  );
  const ui = await startUi(paths.root);
  t.after(() => ui.stop());
  const page = await newPage();
  await page.goto(ui.url);
  for (let round = 0; round < secrets.length; round++) {
    await page.goto(`${ui.origin}/search?q=Wallaby+Way&tier=hot,warm,cold`);
    if (round === 0)
      assert.match(
        (await page.locator('p.summary').textContent())!,
        /mode hybrid/,
        'embeddings are configured: hybrid search, as `ocm-run search`',
      );
    const hit = page.locator('ul.results li.obs', { hasText: 'Wallaby Way' }).first();
    assert.equal(await hit.count(), 1, `round ${round}: a result still holds it`);
    await hit.locator('a[data-action=forget]').click();
    await page.waitForURL(/\/observation\/forget/);
    if (round === 0) await shot(page, 'forget');
    await page.getByRole('button', { name: 'Forget it' }).click();
    await page.waitForSelector('p.notice');
  }
  await page.goto(`${ui.origin}/search?q=Wallaby&tier=hot,warm,cold`);
  assert.doesNotMatch(await page.content(), /Wallaby Way/i);
  assert.deepEqual(await filesContaining(everywhere, needles), [], 'no file in the home or the vault holds the text or its vector');
  const forgets = (await readAudit(paths.audit)).filter((e) => e.action === 'forget');
  assert.deepEqual(new Set(forgets.flatMap((e) => e.ids as string[])), new Set(secrets.map((s) => s.id)));
  assert.ok(!JSON.stringify(forgets).toLowerCase().includes('wallaby'), 'the audit holds ids, not text');
  assert.match(await readFile(join(paths.reflections, 'r1.md'), 'utf8'), /Other things happened/, 'the rest of the reflection stays');
});

test('tiers in the dashboard: approve and reject pending cold moves, roll a move back', { skip, timeout: 15 * 60_000 }, async (t) => {
  const { dir, cleanup } = await tempDir();
  t.after(cleanup);
  const paths = await newHome(dir);
  const vault = join(dir, 'vault');
  await writeFile(
    paths.config,
    `timezone: UTC\nsources: {openclaw: {enabled: false}, openclaw_db: {enabled: false}}\ntiers: {vault_path: ${JSON.stringify(vault)}}\n`,
  );
  await writeHot(paths, [...spread(6, 0, 30, TODAY, 0), ...spread(3, 380, 382, TODAY, 200)]);
  const tier = await runCli(['tier', '--json', '--home', paths.root]);
  assert.equal(tier.code, 0, tier.stderr);
  const pending = (await readApprovals(paths.approvals)).pending;
  assert.equal(pending.length, 3);
  const ui = await startUi(paths.root);
  t.after(() => ui.stop());
  const page = await newPage();
  await page.goto(ui.url);
  await page.goto(`${ui.origin}/tiers`);
  assert.equal(await page.locator('li.proposal').count(), 3);
  await shot(page, 'tiers');
  const [p1, p2] = pending;
  await page.locator(`li.proposal[data-proposal="${p1!.id}"]`).getByRole('button', { name: 'Approve' }).click();
  await page.waitForSelector('p.notice');
  await page.locator(`li.proposal[data-proposal="${p2!.id}"]`).getByRole('button', { name: 'Reject' }).click();
  await page.waitForSelector('p.notice');
  const left = (await readApprovals(paths.approvals)).pending.map((p) => p.id);
  assert.deepEqual(left, [pending[2]!.id]);
  const cold = join(vault, 'OC-Memory', p1!.date.slice(0, 4), `${p1!.date}.md`);
  assert.ok(
    await readFile(cold, 'utf8').then(
      () => true,
      () => false,
    ),
    'the approved day is in the vault',
  );
  const audit = await readAudit(paths.audit);
  assert.ok(audit.some((e) => e.action === 'approve'));
  assert.ok(audit.some((e) => e.action === 'reject'));
  // Roll the approved move back from the audit log.
  const move = audit.filter((e) => e.action === 'move').at(-1)!;
  await page.locator('tr', { hasText: move.op! }).getByRole('button', { name: 'Roll back' }).click();
  await page.waitForSelector('p.notice');
  assert.ok(
    !(await readFile(cold, 'utf8').then(
      () => true,
      () => false,
    )),
    'the day left the vault again',
  );
  assert.ok((await readAudit(paths.audit)).some((e) => e.action === 'rollback'));
  await shot(page, 'tiers-after');
  // The other pages of this home render, charts drawn from the package's uPlot.
  await page.goto(`${ui.origin}/health`);
  await page.waitForSelector('#per-day[data-drawn=true]');
  // Observations per day is a line over days; the token saving compares categories (transcript vs each agent's active memory): bars.
  assert.equal(await page.locator('#per-day').getAttribute('data-kind'), 'lines');
  assert.equal(await page.locator('#tokens[data-drawn=true]').getAttribute('data-kind'), 'bars');
  await shot(page, 'health');
  const foreign = requested.get(page)!.filter((u) => !u.startsWith(`${ui.origin}/`));
  assert.deepEqual(foreign, [], 'every page, script, style and chart came from the dashboard itself (no CDN, no network)');
  assert.ok(
    requested.get(page)!.some((u) => u.endsWith('/assets/uplot.js')),
    'uPlot from the package',
  );
});
