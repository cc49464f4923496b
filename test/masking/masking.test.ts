import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExtraPatterns, maskedPrefix, maskedText, maskSecrets } from '../../lib/masking/masking.js';
import { ConfigError } from '../../lib/core/errors.js';
import { KeywordAutomaton } from '../../lib/masking/keyword-scan.js';

// Secrets are assembled at run time so this file itself does not look like a leaked credential.
const rep = (c: string, n: number) => c.repeat(n);
const OPENAI = `sk-${'Ab3'.repeat(16)}`;
const OPENAI_PROJ = `sk-proj-${'x9_Y-'.repeat(20)}`;
const ANTHROPIC = `sk-ant-api03-${'Qz7'.repeat(30)}`;
const GH_PAT_CLASSIC = `ghp_${'aB1'.repeat(12)}`;
const GH_OAUTH = `gho_${'cD2'.repeat(12)}`;
const GH_SERVER = `ghs_${'eF3'.repeat(12)}`;
const GH_FINE = `github_pat_11AAAAAAA0${'g_H4'.repeat(15)}`;
const AWS_ID = `AKIA${'IOSFODNN7EXAMPLE'}`;
const AWS_SECRET = `wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'EXAMPLEKE'}Y`;
const SLACK_BOT = `xoxb-${'1234567890'}-${'abcdefABCDEF12'}`;
const SLACK_USER = `xoxp-${'2222222222'}-${'zz99'}`;
const SLACK_HOOK = `https://hooks.slack.com/services/T0000000/B0000000/${'X'.repeat(24)}`;
const GOOGLE = `AIza${'Sy'}${'D-9tSrke72PouQMnMX7a7eLmGN0yG_xe1'}`;
const JWT = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'}`;
const PEM = [
  `-----BEGIN RSA ${'PRIVATE'} KEY-----`,
  rep('MIIEowIBAAKCAQEA', 4),
  rep('q83xZ+/=', 8),
  `-----END RSA ${'PRIVATE'} KEY-----`,
].join('\n');

const SECRETS: Array<[kind: string, secret: string]> = [
  ['openai-key', OPENAI],
  ['openai-key', OPENAI_PROJ],
  ['anthropic-key', ANTHROPIC],
  ['github-token', GH_PAT_CLASSIC],
  ['github-token', GH_OAUTH],
  ['github-token', GH_SERVER],
  ['github-token', GH_FINE],
  ['aws-access-key', AWS_ID],
  ['slack-token', SLACK_BOT],
  ['slack-token', SLACK_USER],
  ['slack-webhook', SLACK_HOOK],
  ['google-api-key', GOOGLE],
  ['jwt', JWT],
  ['private-key', PEM],
];

for (const [kind, secret] of SECRETS) {
  test(`masks ${kind}: ${secret.slice(0, 8)}…`, () => {
    const text = `before ${secret} after`;
    const result = maskSecrets(text, {});
    assert.equal(result.text, `before [REDACTED:${kind}] after`);
    assert.equal(result.count, 1);
    assert.deepEqual(result.kinds, [kind]);
    assert.ok(!result.text.includes(secret.slice(4, 16)), 'no part of the secret survives');
  });
}

test('aws_secret_access_key keeps the key name, masks the value', () => {
  for (const form of [
    `aws_secret_access_key=${AWS_SECRET}`,
    `aws_secret_access_key = ${AWS_SECRET}`,
    `AWS_SECRET_ACCESS_KEY: "${AWS_SECRET}"`,
  ]) {
    const r = maskSecrets(form, {});
    assert.match(r.text, /^aws_secret_access_key/i);
    assert.ok(!r.text.includes('wJalr'), r.text);
    assert.ok(r.kinds.includes('aws-secret-key'), r.kinds.join());
  }
});

test("sonar tokens: the label stays, the token goes (the secret is the second capture group of gitleaks' rule)", () => {
  // Low entropy on purpose: only the sonar rule masks it, not the entropy rule.
  const token = 'a1'.repeat(20);
  for (const label of ['sonar.login', 'SONAR_TOKEN']) {
    const r = maskSecrets(`${label}: ${token}`, {});
    assert.equal(r.text, `${label}: [REDACTED:sonar-api-token]`);
    assert.deepEqual(r.kinds, ['sonar-api-token']);
  }
});

test('Bearer tokens: the word stays, the token goes', () => {
  const r = maskSecrets('curl -H "Authorization: Bearer abc123.def456-ghi789" https://api.example.com', {});
  assert.equal(r.text, 'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://api.example.com');
  assert.deepEqual(r.kinds, ['bearer-token']);
  // A JWT as bearer token: the JWT rule wins, the result still shows no secret.
  const j = maskSecrets(`Authorization: Bearer ${JWT}`, {});
  assert.equal(j.text, 'Authorization: Bearer [REDACTED:jwt]');
});

test('key=value / key: value pairs keep the key, mask the value', () => {
  const cases: Array<[string, string]> = [
    ['password=hunter2', 'password=[REDACTED:secret]'],
    ['DB_PASSWORD=hunter2 next', 'DB_PASSWORD=[REDACTED:secret] next'],
    ['passwd: s3cr3t!', 'passwd: [REDACTED:secret]'],
    ['token=abc.def', 'token=[REDACTED:secret]'],
    ['secret: topsecretvalue', 'secret: [REDACTED:secret]'],
    ['api_key=12345abcde', 'api_key=[REDACTED:secret]'],
    ['apiKey: "quoted value with spaces"', 'apiKey: "[REDACTED:secret]"'],
    ['{"password":"hunter2","user":"bob"}', '{"password":"[REDACTED:secret]","user":"bob"}'],
    ["client_secret='xyz'", "client_secret='[REDACTED:secret]'"],
    ['GITHUB_TOKEN=foo123', 'GITHUB_TOKEN=[REDACTED:secret]'],
    ['password=$ecret99', 'password=[REDACTED:secret]'],
  ];
  for (const [input, expected] of cases) {
    const r = maskSecrets(input, {});
    assert.equal(r.text, expected, input);
    assert.equal(r.count, 1, input);
  }
});

test('every keyword and key prefix is found in any letter case (the one-scan anchor test never skips a rule that matches)', () => {
  const cases: Array<[string, string]> = [
    ['PassPhrase=c0rrect-horse', 'PassPhrase=[REDACTED:secret]'],
    ['ACCESS_KEY=abc123', 'ACCESS_KEY=[REDACTED:secret]'],
    ['Private-Key: abc123', 'Private-Key: [REDACTED:secret]'],
    ['AUTH_TOKEN=abc123', 'AUTH_TOKEN=[REDACTED:secret]'],
    ['ApiKey=abc123', 'ApiKey=[REDACTED:secret]'],
    ['Client_Secret=abc123', 'Client_Secret=[REDACTED:secret]'],
    ['PASSWD=abc123', 'PASSWD=[REDACTED:secret]'],
    [`AWS_Secret_Access_Key = ${AWS_SECRET}`, 'AWS_Secret_Access_Key = [REDACTED:aws-secret-key]'],
    [`ghu_${'aB1'.repeat(12)}`, '[REDACTED:github-token]'],
    [`ghr_${'aB1'.repeat(12)}`, '[REDACTED:github-token]'],
    [`ASIA${'IOSFODNN7EXAMPLE'}`, '[REDACTED:aws-access-key]'],
    [`ABIA${'IOSFODNN7EXAMPLE'}`, '[REDACTED:aws-access-key]'],
    [`ACCA${'IOSFODNN7EXAMPLE'}`, '[REDACTED:aws-access-key]'],
    [`Authorization: BEARER abc.def-123456`, 'Authorization: BEARER abc.def-123456'], // the bearer pattern is [Bb]earer: all-caps stays, anchored or not
  ];
  for (const [input, expected] of cases) assert.equal(maskSecrets(input, {}).text, expected, input);
  assert.deepEqual(maskSecrets('nothing to hide here, just words', {}), { text: 'nothing to hide here, just words', count: 0, kinds: [] });
});

test('a known key format inside a pair is labelled by its kind, once', () => {
  const r = maskSecrets(`OPENAI_API_KEY=${OPENAI}`, {});
  assert.equal(r.text, 'OPENAI_API_KEY=[REDACTED:openai-key]');
  assert.equal(r.count, 1);
});

test('URLs with user:password@ lose the credentials, keep scheme and host', () => {
  const r = maskSecrets('connect to postgres://admin:pa55word@db.internal:5432/app now', {});
  assert.equal(r.text, 'connect to postgres://[REDACTED:url-credentials]@db.internal:5432/app now');
  const h = maskSecrets('https://user:tok@github.com/o/r.git', {});
  assert.equal(h.text, 'https://[REDACTED:url-credentials]@github.com/o/r.git');
});

test('PEM blocks: several, escaped newlines, and a truncated block', () => {
  const escaped = PEM.replace(/\n/g, '\\n');
  const r = maskSecrets(`a ${PEM} b ${escaped} c`, {});
  assert.equal(r.text, 'a [REDACTED:private-key] b [REDACTED:private-key] c');
  assert.equal(r.count, 2);
  const truncated = PEM.split('\n').slice(0, 3).join('\n');
  const t = maskSecrets(`key:\n${truncated}\n(output truncated)`, {});
  assert.equal(t.text, 'key:\n[REDACTED:private-key]\n(output truncated)');
  const ec = maskSecrets(`-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----`, {});
  assert.equal(ec.text, '[REDACTED:private-key]');
  // A public key or certificate is not a secret.
  const pub = '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----';
  assert.equal(maskSecrets(pub, {}).text, pub);
});

test('emails only when asked', () => {
  const text = 'mail jane.doe+x@example.co.uk about it';
  assert.equal(maskSecrets(text, {}).text, text);
  const r = maskSecrets(text, { emails: true });
  assert.equal(r.text, 'mail [REDACTED:email] about it');
  assert.deepEqual(r.kinds, ['email']);
});

test('near misses are left alone', () => {
  const clean = [
    'the task-force met on Friday',
    'risk-management-and-compliance-framework',
    'sk-learn-is-a-python-library-name-here',
    'commit 9519ed3f0c1a2b3c4d5e6f708192a3b4c5d6e7f8 fixed it',
    'id 3f2504e0-4f89-11d3-9a0c-0305e82c3301 was created',
    'max_tokens=4096 and inputTokens: 1234',
    'the tokenizer: bpe; passwordless: true; secretary: Jane',
    'Bearer responsibilities include honesty',
    'AKIA is a prefix; AKIAshort',
    'eyJ alone, or eyJhbGci without dots',
    'https://example.com/path?x=1 and git@github.com:o/r.git',
    'api_key: ${OPENAI_API_KEY} comes from the environment',
    'password: <your password here>',
    'the secret: ***',
    'normal words in 한국어 and English',
    // Paths of ordinary names, dates and numbers (a vault's day file), on Linux, macOS (iCloud) and as a bare path.
    'moved /home/alice/Obsidian/MyVault/OC-Memory/2025/2025-10-25.md to the vault',
    'kept in /Users/bob/Library/Mobile Documents/iCloud~md~obsidian/Documents/Vault/OC-Memory/2025/2025-10-25.md',
    'see src/components/InvoiceExport/v2/2026-04-07-notes.md',
  ];
  for (const text of clean) {
    const r = maskSecrets(text, {});
    assert.equal(r.text, text, text);
    assert.equal(r.count, 0, text);
  }
});

test('idempotent: masking twice equals masking once, and counts nothing the second time', () => {
  const all = `${SECRETS.map(([, s]) => s).join(' | ')} password=x1 Bearer abc123def456ghi https://u:p@h.io jane@example.com aws_secret_access_key=${AWS_SECRET}`;
  const extra = compileExtraPatterns(['ACME-[0-9]{6}', '/redacted/i']);
  const once = maskSecrets(`${all} ACME-123456`, { emails: true, extraPatterns: extra });
  const twice = maskSecrets(once.text, { emails: true, extraPatterns: extra });
  assert.equal(twice.text, once.text);
  assert.equal(twice.count, 0);
  assert.ok(once.count >= SECRETS.length + 5);
  assert.ok(!/REDACTED:custom/.test(once.text.replace('[REDACTED:custom]', '')), 'extra pattern matched once, not inside labels');
});

test("maskedPrefix is the start of maskSecrets' text, cut anywhere: before, inside, after and between secrets", () => {
  // Secrets and key=value pairs back to back, so a cut falls inside matches, between them, and where a
  // shorter redaction has pulled later text forward.
  let x = 11;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const pieces = [
    ...SECRETS.map(([, s]) => s),
    'password=hunter2x',
    `token: "${rep('t0k', 40)}"`,
    'api_key=',
    'Bearer abc123def456ghi',
    'https://u:p@h.io/x',
    ' ',
    '\n',
    'plain words ',
    'key',
    '[REDACTED:secret]',
  ];
  for (let i = 0; i < 300; i++) {
    let text = '';
    for (let k = Math.floor(rand() * 12); k > 0; k--) text += pieces[Math.floor(rand() * pieces.length)];
    const full = maskSecrets(text).text;
    const options = { emails: true, extraPatterns: [/plain/g] };
    assert.equal(maskedText(text, options), maskSecrets(text, options).text, "maskedText is maskSecrets' text");
    for (const length of [0, 1, 7, 20, 50, 81, 120, 201, 400, 1000, 5000]) {
      assert.equal(maskedPrefix(text, length), full.slice(0, length), `${length}: ${JSON.stringify(text.slice(0, 80))}`);
    }
  }
});

test('extra patterns from config: plain and /…/flags forms', () => {
  const [plain, flagged] = compileExtraPatterns(['acme_[a-z0-9]{8}', '/INTERNAL-\\d+/i']);
  assert.ok(plain && flagged);
  const r = maskSecrets('x acme_abcd1234 y internal-42 z', { extraPatterns: [plain, flagged] });
  assert.equal(r.text, 'x [REDACTED:custom] y [REDACTED:custom] z');
  assert.equal(r.count, 2);
  // A non-global RegExp passed directly still masks every match.
  const nonGlobal = maskSecrets('a1 a2 a3', { extraPatterns: [/a\d/] });
  assert.equal(nonGlobal.text, '[REDACTED:custom] [REDACTED:custom] [REDACTED:custom]');
});

test('bad extra patterns are ConfigErrors with a hint and the key path', () => {
  for (const [bad, re] of [
    ['acme_[', /not a valid regular expression/],
    ['', /empty/],
    ['a*', /empty string/],
    ['/abc/g', /unsupported flags/],
    ['(a+)+$', /backtrack catastrophically/],
    ['^(\\w+\\s?)*$', /backtrack catastrophically/],
    ['/(x+x+)+y/i', /backtrack catastrophically/],
  ] as const) {
    assert.throws(
      () => compileExtraPatterns(['ok', bad]),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, re);
        assert.equal(error.keyPath, 'masking.extra_patterns[1]');
        assert.ok(error.hint && error.hint.length > 10);
        return true;
      },
    );
  }
});

test('a safe extra pattern of the same shape as a refused one is accepted and masks', () => {
  for (const bad of ['(a+)+$', '(\\d+)*x', '([a-z0-9]+[-.]?)+@']) {
    assert.throws(() => compileExtraPatterns([bad]), /backtrack catastrophically/, bad);
  }
  const [ok] = compileExtraPatterns(['acme_[a-z0-9]{32}']);
  assert.ok(ok);
  assert.equal(maskSecrets(`x acme_${'a1'.repeat(16)} y ${'a'.repeat(5000)}!`, { extraPatterns: [ok] }).count, 1);
});

test('5 MB adversarial inputs finish (no catastrophic backtracking) and stay correct', () => {
  // No timing assertion (see bench/): a backtracking regex would make this test hang, not fail quietly.
  const pieces = [
    `sk-${'a'.repeat(100)} `,
    'password= ',
    `eyJ${'a'.repeat(50)}. `,
    '-----BEGIN PRIVATE KEY----- aaa ',
    'a.'.repeat(50),
    'x:'.repeat(50),
    '@'.repeat(50),
    `Bearer ${'a'.repeat(40)} `,
    `aws_secret_access_key=${'a'.repeat(39)} `,
  ];
  for (const piece of pieces) {
    const big = piece.repeat(Math.ceil(5_000_000 / piece.length));
    const r = maskSecrets(big, { emails: true });
    assert.ok(r.text.length > 0);
  }
  const haystack = `${'lorem ipsum dolor '.repeat(300_000)}${OPENAI} end`;
  const r = maskSecrets(haystack, { emails: true });
  assert.ok(r.text.endsWith('[REDACTED:openai-key] end'));
  assert.equal(r.count, 1);
});

test('the keyword pass finds every keyword: nested, overlapping, in any ASCII case, and in Hangul', () => {
  const keywords = ['sk', 'sk_live', 'live_', 'ive_x', '비밀번호', '번호', 'abc'];
  const automaton = new KeywordAutomaton(keywords);
  const found = (text: string) => {
    const seen = new Set<string>();
    automaton.scan(text, (k) => seen.add(keywords[k]!), { keyRun: 0, digits: 0 });
    return [...seen].sort();
  };
  assert.deepEqual(found('SK_LIVE_X'), ['ive_x', 'live_', 'sk', 'sk_live'].sort());
  assert.deepEqual(found('내 비밀번호는'), ['번호', '비밀번호'].sort());
  assert.deepEqual(found('ab abd aBc'), ['abc']);
  assert.deepEqual(found('nothing here'), []);
  const shape = { keyRun: 0, digits: 0 };
  automaton.scan('id a1B2c3 and 4111 1111-1111 x', () => {}, shape);
  assert.deepEqual(shape, { keyRun: 6, digits: 12 });
});

test('a value after a credential word is masked whatever its shape: a bare UUID, name / password and name:password pairs', () => {
  const uuid = ['9c4f1e2a', '7b3d', '4e8f', 'a1c6', '5d2e9b0f7a34'].join('-');
  const cases: Array<[string, string]> = [
    [`postmark. I made an account, server token is ${uuid}`, 'postmark. I made an account, server token is [REDACTED:credential]'],
    [`the api key is ${uuid}.`, 'the api key is [REDACTED:credential].'],
    [`서버 토큰은 ${uuid} 이야`, '서버 토큰은 [REDACTED:credential] 이야'],
    [
      'oh can you remember my Etsy login? I always forget it. helenpark.clay / Glaze&Kiln2026!',
      'oh can you remember my Etsy login? I always forget it. helenpark.clay / [REDACTED:password]',
    ],
    ['my Etsy login is helenpark.clay / Glaze&Kiln2026!', 'my Etsy login is helenpark.clay / [REDACTED:password]!'],
    ['remember my Etsy login? helenpark:Glaze&Kiln2026', 'remember my Etsy login? helenpark:[REDACTED:password]'],
    ['the login is bob:hunter22', 'the login is bob:[REDACTED:password]'],
    ['내 etsy 로그인 기억해줘: helen.park / Glaze&Kiln2026!', '내 etsy 로그인 기억해줘: helen.park / [REDACTED:password]'],
    ['my secret is Tr0mb0ne88', 'my secret is [REDACTED:credential]'],
  ];
  for (const [text, expected] of cases) {
    assert.equal(maskSecrets(text).text, expected, text);
    assert.equal(maskSecrets(expected).text, expected, `idempotent: ${expected}`);
  }
  for (const harmless of [
    'the token bucket algorithm limits requests',
    'key decisions: use Postgres',
    'password reset flow is broken',
    `request id ${uuid} failed`,
    'the key is simplicity',
    'the key is API-first design',
    'the login is broken since Monday',
    'the login page has yes / no buttons',
    'the login / logout buttons',
    'my account meeting is at 10:30 today',
    'the password for localhost:5432 is required',
    'login flow: see https://example.com/login',
    '키는 180이야',
    'tokens are 12345',
  ]) {
    assert.equal(maskSecrets(harmless).text, harmless, harmless);
  }
});
