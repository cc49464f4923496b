/**
 * The masking corpus (issue #22 item 2): secrets of 50 kinds, each in its
 * public format with random characters, bare and labelled, and 32 classes of
 * harmless text that looks a little like secrets and must stay as it is.
 * Seeded: the same seed gives the same corpus, so a failure is reproducible
 * (`secretCorpus(seed)`; the seed is printed with every failure).
 *
 * Secrets are assembled from pieces at run time, so this file holds no string
 * that a secret scanner would flag.
 */

export type Context = 'bare' | 'prose' | 'env' | 'yaml' | 'json';

export interface SecretInstance {
  kind: string;
  context: Context;
  /** The text as a transcript line would hold it. */
  text: string;
  /** The random part of the secret: no 8-character piece of it may survive masking. */
  core: string;
}

export interface HarmlessInstance {
  cls: string;
  text: string;
}

/** mulberry32: small, seedable, good enough to draw characters. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.toUpperCase();

type Draw = (alphabet: string, n: number) => string;

function drawer(rand: () => number): Draw {
  return (alphabet, n) => {
    // Random, but never without a digit and a letter when the alphabet has both (a real key of 16+ has them).
    for (;;) {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
      const wantsDigit = /[0-9]/.test(alphabet) && n >= 12;
      const wantsLetter = /[A-Za-z]/.test(alphabet) && n >= 12;
      if ((!wantsDigit || /[0-9]/.test(out)) && (!wantsLetter || /[A-Za-z]/.test(out))) return out;
    }
  };
}

function luhnComplete(partial: string): string {
  for (let d = 0; d <= 9; d++) {
    const digits = partial + d;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let v = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        v *= 2;
        if (v > 9) v -= 9;
      }
      sum += v;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

interface Kind {
  kind: string;
  /** The secret and its random core. */
  make(draw: Draw, rand: () => number): { secret: string; core: string };
  /** Env-style label (`STRIPE_SECRET_KEY`), YAML/JSON label (`stripe_key`), and how prose names it. */
  env: string;
  key: string;
  prose: string;
  /** Contexts this kind appears in (default: all five). */
  contexts?: Context[];
}

const j = (...parts: string[]) => parts.join('');

/**
 * Kinds with no format of their own appear labelled only: a bare 32-hex string
 * is also an MD5 sum, six digits a number, ten letters and digits a word.
 */
const LABELLED: Context[] = ['prose', 'env', 'yaml', 'json'];

const KINDS: Kind[] = [
  {
    kind: 'openai-legacy',
    env: 'OPENAI_API_KEY',
    key: 'openai_api_key',
    prose: 'my OpenAI key is',
    make: (d) => {
      const a = d(ALNUM, 20);
      const b = d(ALNUM, 20);
      return { secret: j('sk-', a, 'T3Blbk', 'FJ', b), core: a + b };
    },
  },
  {
    kind: 'openai-project',
    env: 'OPENAI_API_KEY',
    key: 'openai_key',
    prose: 'the project key is',
    make: (d) => {
      const a = d(URLSAFE, 74);
      const b = d(URLSAFE, 74);
      return { secret: j('sk-', 'proj-', a, 'T3Blbk', 'FJ', b), core: a + b };
    },
  },
  {
    kind: 'openai-short',
    env: 'OPENAI_KEY',
    key: 'openai_key',
    prose: 'use the key',
    make: (d) => {
      const a = d(`${LOWER}${DIGITS}`, 16);
      return { secret: j('sk-', a), core: a };
    },
  },
  {
    kind: 'anthropic',
    env: 'ANTHROPIC_API_KEY',
    key: 'anthropic_api_key',
    prose: 'my Claude API key is',
    make: (d) => {
      const a = d(URLSAFE, 93);
      return { secret: j('sk-', 'ant-api03-', a, 'AA'), core: a };
    },
  },
  {
    kind: 'github-classic',
    env: 'GITHUB_TOKEN',
    key: 'github_token',
    prose: 'the GitHub token is',
    make: (d) => {
      const a = d(ALNUM, 36);
      return { secret: j('gh', 'p_', a), core: a };
    },
  },
  {
    kind: 'github-fine-grained',
    env: 'GH_PAT',
    key: 'gh_pat',
    prose: 'my GitHub PAT is',
    make: (d) => {
      const a = d(ALNUM, 22);
      const b = d(ALNUM, 59);
      return { secret: j('github', '_pat_', a, '_', b), core: a + b };
    },
  },
  {
    kind: 'github-oauth',
    env: 'GH_OAUTH',
    key: 'oauth_token',
    prose: 'the OAuth token was',
    make: (d) => {
      const a = d(ALNUM, 36);
      return { secret: j('gh', 'o_', a), core: a };
    },
  },
  {
    kind: 'gitlab-pat',
    env: 'GITLAB_TOKEN',
    key: 'gitlab_token',
    prose: 'my GitLab token is',
    make: (d) => {
      const a = d(URLSAFE, 20);
      return { secret: j('glp', 'at-', a), core: a };
    },
  },
  {
    kind: 'aws-access-key',
    env: 'AWS_ACCESS_KEY_ID',
    key: 'aws_access_key_id',
    prose: 'the AWS key id is',
    make: (d) => {
      const a = d(`${UPPER}234567`, 16);
      return { secret: j('AK', 'IA', a), core: a };
    },
  },
  {
    kind: 'aws-secret-key',
    env: 'AWS_SECRET_ACCESS_KEY',
    key: 'aws_secret_access_key',
    prose: 'and the AWS secret is',
    make: (d) => {
      const a = d(BASE64, 40);
      return { secret: a, core: a };
    },
  },
  {
    kind: 'stripe-live',
    env: 'STRIPE_SECRET_KEY',
    key: 'stripe_key',
    prose: 'the Stripe key is',
    make: (d) => {
      const a = d(ALNUM, 24);
      return { secret: j('sk', '_live_', a), core: a };
    },
  },
  {
    kind: 'stripe-test',
    env: 'STRIPE_KEY',
    key: 'stripe_key',
    prose: 'Stripe test key:',
    make: (d) => {
      const a = d(ALNUM, 24);
      return { secret: j('sk', '_test_', a), core: a };
    },
  },
  {
    kind: 'stripe-restricted',
    env: 'STRIPE_RK',
    key: 'stripe_rk',
    prose: 'the restricted key is',
    make: (d) => {
      const a = d(ALNUM, 24);
      return { secret: j('rk', '_live_', a), core: a };
    },
  },
  {
    kind: 'slack-bot',
    env: 'SLACK_BOT_TOKEN',
    key: 'slack_token',
    prose: 'the Slack bot token is',
    make: (d) => {
      const a = d(DIGITS, 12);
      const b = d(DIGITS, 13);
      const c = d(ALNUM, 24);
      return { secret: j('xo', 'xb-', a, '-', b, '-', c), core: c };
    },
  },
  {
    kind: 'slack-user',
    env: 'SLACK_USER_TOKEN',
    key: 'slack_user_token',
    prose: 'my Slack user token is',
    make: (d) => {
      const a = d(DIGITS, 12);
      const b = d(DIGITS, 13);
      const c = d(DIGITS, 13);
      const e = d(HEX, 32);
      return { secret: j('xo', 'xp-', a, '-', b, '-', c, '-', e), core: e };
    },
  },
  {
    kind: 'slack-webhook',
    env: 'SLACK_WEBHOOK_URL',
    key: 'webhook_url',
    prose: 'post to',
    make: (d) => {
      const a = d(UPPER + DIGITS, 10);
      const b = d(ALNUM, 24);
      return { secret: j('https://hooks.', 'slack.com/services/T', a, '/B', d(UPPER + DIGITS, 10), '/', b), core: b };
    },
  },
  {
    kind: 'google-api-key',
    env: 'GOOGLE_API_KEY',
    key: 'google_api_key',
    prose: 'the Maps key is',
    make: (d) => {
      const a = d(URLSAFE, 35);
      return { secret: j('AI', 'za', a), core: a };
    },
  },
  {
    kind: 'sendgrid',
    env: 'SENDGRID_API_KEY',
    key: 'sendgrid_key',
    prose: 'the SendGrid key is',
    make: (d) => {
      const a = d(URLSAFE, 22);
      const b = d(URLSAFE, 43);
      return { secret: j('S', 'G.', a, '.', b), core: a + b };
    },
  },
  {
    kind: 'npm',
    env: 'NPM_TOKEN',
    key: 'npm_token',
    prose: 'my npm token is',
    make: (d) => {
      const a = d(`${LOWER}${DIGITS}`, 36);
      return { secret: j('np', 'm_', a), core: a };
    },
  },
  {
    kind: 'pypi',
    env: 'PYPI_TOKEN',
    key: 'pypi_token',
    prose: 'the PyPI upload token is',
    make: (d) => {
      const a = d(URLSAFE, 70);
      return { secret: j('py', 'pi-AgEIcHlwaS5vcmc', a), core: a };
    },
  },
  {
    kind: 'huggingface',
    env: 'HF_TOKEN',
    key: 'hf_token',
    prose: 'my Hugging Face token is',
    make: (d) => {
      const a = d(UPPER + LOWER, 34);
      return { secret: j('h', 'f_', a), core: a };
    },
  },
  {
    kind: 'discord-bot',
    env: 'DISCORD_TOKEN',
    key: 'discord_token',
    prose: 'the Discord bot token is',
    make: (d, r) => {
      const a = d(ALNUM, 23);
      const b = d(URLSAFE, 6);
      const c = d(URLSAFE, 27);
      return { secret: j('MNO'[Math.floor(r() * 3)]!, a, '.', b, '.', c), core: c };
    },
  },
  {
    kind: 'telegram-bot',
    env: 'TELEGRAM_BOT_TOKEN',
    key: 'telegram_token',
    prose: 'the Telegram bot token is',
    make: (d) => {
      const a = d(DIGITS, 10);
      const b = d(URLSAFE, 33);
      return { secret: j(a, ':A', 'A', b), core: b };
    },
  },
  {
    kind: 'twilio-account-sid',
    env: 'TWILIO_ACCOUNT_SID',
    key: 'twilio_sid',
    prose: 'the Twilio account SID is',
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: j('A', 'C', a), core: a };
    },
  },
  {
    kind: 'twilio-api-key',
    env: 'TWILIO_API_KEY',
    key: 'twilio_api_key',
    prose: 'the Twilio API key is',
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: j('S', 'K', a), core: a };
    },
  },
  {
    kind: 'twilio-auth-token',
    env: 'TWILIO_AUTH_TOKEN',
    key: 'twilio_auth_token',
    prose: 'the Twilio auth token is',
    contexts: LABELLED,
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: a, core: a };
    },
  },
  {
    kind: 'azure-storage',
    env: 'AZURE_STORAGE_CONNECTION_STRING',
    key: 'connection_string',
    prose: 'the storage connection string is',
    make: (d) => {
      const a = d(BASE64, 86);
      return {
        secret: j('DefaultEndpointsProtocol=https;AccountName=acme;Account', 'Key=', a, '==;EndpointSuffix=core.windows.net'),
        core: a,
      };
    },
  },
  {
    kind: 'azure-storage-key',
    env: 'AZURE_STORAGE_KEY',
    key: 'storage_key',
    prose: 'the storage account key is',
    make: (d) => {
      const a = d(BASE64, 86);
      return { secret: `${a}==`, core: a };
    },
  },
  {
    kind: 'jwt',
    env: 'ID_TOKEN',
    key: 'id_token',
    prose: 'the session JWT is',
    make: (d) => {
      const a = d(URLSAFE, 40);
      const b = d(URLSAFE, 43);
      return { secret: j('eyJhbGciOiJIUzI1NiJ9.', 'eyJ', a, '.', b), core: a + b };
    },
  },
  {
    kind: 'postgres-url',
    env: 'DATABASE_URL',
    key: 'database_url',
    prose: 'connect with',
    make: (d) => {
      const a = d(ALNUM, 16);
      return { secret: j('postgres://app:', a, '@db.internal:5432/shop'), core: a };
    },
  },
  {
    kind: 'rediss-empty-user',
    env: 'REDIS_URL',
    key: 'redis_url',
    prose: 'the cache is at',
    make: (d) => {
      const a = d(ALNUM, 20);
      return { secret: j('rediss://:', a, '@cache.internal:6380/0'), core: a };
    },
  },
  {
    kind: 'mailgun',
    env: 'MAILGUN_API_KEY',
    key: 'mailgun_key',
    prose: 'the Mailgun key is',
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: j('ke', 'y-', a), core: a };
    },
  },
  {
    kind: 'shopify',
    env: 'SHOPIFY_TOKEN',
    key: 'shopify_token',
    prose: 'the Shopify admin token is',
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: j('shp', 'at_', a), core: a };
    },
  },
  {
    kind: 'digitalocean',
    env: 'DO_TOKEN',
    key: 'do_token',
    prose: 'the DigitalOcean token is',
    make: (d) => {
      const a = d(HEX, 64);
      return { secret: j('do', 'p_v1_', a), core: a };
    },
  },
  {
    kind: 'linear',
    env: 'LINEAR_API_KEY',
    key: 'linear_key',
    prose: 'my Linear key is',
    make: (d) => {
      const a = d(ALNUM, 40);
      return { secret: j('lin', '_api_', a), core: a };
    },
  },
  {
    kind: 'doppler',
    env: 'DOPPLER_TOKEN',
    key: 'doppler_token',
    prose: 'the Doppler token is',
    make: (d) => {
      const a = d(ALNUM, 43);
      return { secret: j('dp', '.pt.', a), core: a };
    },
  },
  {
    kind: 'databricks',
    env: 'DATABRICKS_TOKEN',
    key: 'databricks_token',
    prose: 'the Databricks token is',
    make: (d) => {
      const a = d(HEX, 32);
      return { secret: j('da', 'pi', a), core: a };
    },
  },
  {
    kind: 'newrelic',
    env: 'NEW_RELIC_API_KEY',
    key: 'newrelic_key',
    prose: 'the New Relic key is',
    make: (d) => {
      const a = d(UPPER + DIGITS, 27);
      return { secret: j('NR', 'AK-', a), core: a };
    },
  },
  {
    kind: 'square',
    env: 'SQUARE_TOKEN',
    key: 'square_token',
    prose: 'the Square token is',
    make: (d) => {
      const a = d(URLSAFE, 22);
      return { secret: j('sq0', 'atp-', a), core: a };
    },
  },
  {
    kind: 'grafana-sa',
    env: 'GRAFANA_TOKEN',
    key: 'grafana_token',
    prose: 'the Grafana service account token is',
    make: (d) => {
      const a = d(ALNUM, 32);
      const b = d(HEX, 8);
      return { secret: j('gl', 'sa_', a, '_', b), core: a };
    },
  },
  {
    kind: 'age-secret-key',
    env: 'AGE_KEY',
    key: 'age_key',
    prose: 'my age identity is',
    make: (d) => {
      const a = d(BECH32, 58);
      return { secret: j('AGE-', 'SECRET-KEY-1', a), core: a };
    },
  },
  {
    kind: 'vault-token',
    env: 'VAULT_TOKEN',
    key: 'vault_token',
    prose: 'the Vault token is',
    make: (d) => {
      const a = d(URLSAFE, 95);
      return { secret: j('hv', 's.', a), core: a };
    },
  },
  {
    kind: 'bearer-opaque',
    env: 'AUTH_HEADER',
    key: 'authorization',
    prose: 'send',
    contexts: ['bare', 'prose', 'json'],
    make: (d) => {
      const a = d(`${URLSAFE}.~`, 40);
      return { secret: j('Authorization: Bear', 'er ', a), core: a };
    },
  },
  {
    kind: 'unknown-vendor-key',
    env: 'ACME_API_KEY',
    key: 'acme_api_key',
    prose: 'the Acme API key is',
    make: (d) => {
      const a = d(ALNUM, 32);
      return { secret: a, core: a };
    },
  },
  {
    kind: 'password-en',
    env: 'DB_PASSWORD',
    key: 'password',
    prose: 'my password is',
    contexts: LABELLED,
    make: (d) => {
      const a = d(ALNUM, 10);
      return { secret: `${a}!`, core: a };
    },
  },
  {
    kind: 'password-ko',
    env: 'ADMIN_PASS',
    key: 'admin_password',
    prose: '비밀번호는',
    contexts: LABELLED,
    make: (d) => {
      const a = d(ALNUM, 10);
      return { secret: a, core: a };
    },
  },
  {
    kind: 'pin',
    env: 'CARD_PIN',
    key: 'pin',
    prose: 'the PIN is',
    contexts: LABELLED,
    make: (d) => {
      const a = d(DIGITS, 6);
      return { secret: a, core: a };
    },
  },
  {
    kind: 'card-visa',
    env: 'CARD_NUMBER',
    key: 'card_number',
    prose: 'my card number is',
    make: (d) => {
      const digits = luhnComplete(`4${d(DIGITS, 14)}`);
      return { secret: digits.replace(/(\d{4})(?=\d)/g, '$1 '), core: digits };
    },
  },
  {
    kind: 'card-mastercard',
    env: 'CC',
    key: 'cc',
    prose: 'charge the card',
    make: (d) => {
      const digits = luhnComplete(`5${d('12345', 1)}${d(DIGITS, 13)}`);
      return { secret: digits, core: digits };
    },
  },
  {
    kind: 'private-key-pem',
    env: 'SSH_KEY',
    key: 'private_key',
    prose: 'here is the deploy key',
    contexts: ['bare', 'prose', 'json'],
    make: (d) => {
      const body = [d(BASE64, 64), d(BASE64, 64), d(BASE64, 40)];
      return {
        secret: [j('-----BEGIN RSA PRIV', 'ATE KEY-----'), ...body, j('-----END RSA PRIV', 'ATE KEY-----')].join('\n'),
        core: body.join(''),
      };
    },
  },
  // Values with no format of their own, named only by the words before them.
  {
    kind: 'uuid-token',
    env: 'POSTMARK_SERVER_TOKEN',
    key: 'server_token',
    prose: 'I made an account, server token is',
    contexts: LABELLED,
    make: (d) => {
      const a = `${d(HEX, 8)}-${d(HEX, 4)}-4${d(HEX, 3)}-a${d(HEX, 3)}-${d(HEX, 12)}`;
      return { secret: a, core: a };
    },
  },
  {
    kind: 'uuid-token-ko',
    env: 'SERVER_TOKEN',
    key: 'token',
    prose: '서버 토큰은',
    contexts: ['prose'],
    make: (d) => {
      const a = `${d(HEX, 8)}-${d(HEX, 4)}-4${d(HEX, 3)}-a${d(HEX, 3)}-${d(HEX, 12)}`;
      return { secret: a, core: a };
    },
  },
  {
    kind: 'login-pair-slash',
    env: 'ETSY_LOGIN',
    key: 'etsy_login',
    prose: 'oh can you remember my Etsy login? I always forget it.',
    contexts: ['prose'],
    make: (d) => {
      const p = `${d(UPPER, 1)}${d(LOWER, 5)}&${d(UPPER, 1)}${d(LOWER, 3)}${d(DIGITS, 4)}!`;
      return { secret: `${d(LOWER, 6)}.${d(LOWER, 4)} / ${p}`, core: p.slice(0, -1) };
    },
  },
  {
    kind: 'login-pair-colon',
    env: 'ETSY_LOGIN',
    key: 'etsy_login',
    prose: 'remember my Etsy login?',
    contexts: ['prose'],
    make: (d) => {
      const p = `${d(ALNUM, 10)}#${d(DIGITS, 2)}`;
      return { secret: `${d(LOWER, 7)}:${p}`, core: p };
    },
  },
  {
    kind: 'login-is-pair',
    env: 'SHOP_LOGIN',
    key: 'shop_login',
    prose: 'the shop login is',
    contexts: ['prose'],
    make: (d) => {
      const p = `${d(ALNUM, 9)}`;
      return { secret: `${d(LOWER, 5)}@example.com / ${p}`, core: p };
    },
  },
  {
    kind: 'prd-example',
    env: 'OPENAI_API_KEY',
    key: 'api_key',
    prose: 'my key is',
    make: () => ({ secret: j('sk-', '1234567890abcdef'), core: j('1234567890', 'abcdef') }),
  },
];

/** How each context writes a secret of a kind. */
function inContext(kind: Kind, context: Context, secret: string): string {
  switch (context) {
    case 'bare':
      return `ok, I set it to ${secret} and restarted the service`;
    case 'prose':
      return kind.kind === 'password-ko' ? `${kind.prose} ${secret}야. 잊지 마` : `fyi ${kind.prose} ${secret} — keep it safe`;
    case 'env':
      return `export ${kind.env}=${secret}`;
    case 'yaml':
      return `${kind.key}: ${secret}`;
    case 'json':
      return JSON.stringify({ [kind.key]: secret, region: 'eu-west-1' });
  }
}

export function secretCorpus(seed: number, perContext = 2): SecretInstance[] {
  const rand = seededRandom(seed);
  const draw = drawer(rand);
  const out: SecretInstance[] = [];
  for (const kind of KINDS) {
    for (const context of kind.contexts ?? (['bare', 'prose', 'env', 'yaml', 'json'] as Context[])) {
      for (let n = 0; n < perContext; n++) {
        const { secret, core } = kind.make(draw, rand);
        out.push({ kind: kind.kind, context, text: inContext(kind, context, secret), core });
      }
    }
  }
  return out;
}

export const SECRET_KINDS: readonly string[] = KINDS.map((k) => k.kind);

/** Whether `output` still holds a piece of `core` (8 characters or all of a shorter core). */
export function leaks(output: string, core: string): boolean {
  const plain = output.replace(/\\n/g, '\n');
  const width = Math.min(8, core.length);
  for (let i = 0; i + width <= core.length; i++) if (plain.includes(core.slice(i, i + width))) return true;
  return false;
}

/** 39 classes of harmless text, `perClass` instances each: none may be changed by masking. */
export function harmlessCorpus(seed: number, perClass = 3): HarmlessInstance[] {
  const rand = seededRandom(seed ^ 0x5eed);
  const d = drawer(rand);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const classes: Array<[string, () => string]> = [
    ['git-sha', () => `commit ${d(HEX, 40)} fixed the login redirect`],
    ['git-short-sha', () => `merged ${d(HEX, 7)} into main`],
    ['uuid', () => `request id ${d(HEX, 8)}-${d(HEX, 4)}-4${d(HEX, 3)}-a${d(HEX, 3)}-${d(HEX, 12)} failed`],
    ['base64-image', () => `![chart](data:image/png;base64,iVBORw0KGgo${d(BASE64, 400)}=)`],
    ['hex-colour', () => `set the accent to #${d(HEX, 6)} and the border to #${d(HEX, 3)}`],
    ['long-number', () => `message ${1}${d(DIGITS, 17)} in channel ${1}${d(DIGITS, 18)}`],
    ['max-tokens', () => `call it with max_tokens=${pick(['2000', '4096', '800'])} and temperature=0.2`],
    ['token-budget', () => `token_budget: ${pick(['4000', '12000', '1500'])}`],
    ['password-manager', () => 'password: stored in 1Password'],
    ['ms-timestamp', () => `created_at ${'17'}${d(DIGITS, 11)}`],
    ['semver', () => `upgraded to v${Math.floor(rand() * 30)}.${Math.floor(rand() * 30)}.${Math.floor(rand() * 30)}`],
    ['ipv4', () => `the box at 10.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)} is down`],
    ['iso-time', () => `deployed at 2026-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}T10:2${Math.floor(rand() * 9)}:00Z`],
    [
      'path-with-digits',
      () => `edit /home/dev/project/src/components/${pick(['Button2', 'Modal3', 'Chart10'])}.tsx line ${Math.floor(rand() * 400)}`,
    ],
    ['plain-url', () => `see https://github.com/acme/${pick(['web', 'api', 'cli'])}/pull/${Math.floor(rand() * 9000)}`],
    ['npm-integrity', () => `"integrity": "sha512-${d(BASE64, 86)}=="`],
    ['docker-digest', () => `image@sha256:${d(HEX, 64)}`],
    [
      'camel-identifier',
      () =>
        `rename ${pick(['parseUserAccount2FactorSettings', 'loadOAuth2ProviderConfig', 'renderDashboardV3Layout'])} to something shorter`,
    ],
    ['constant', () => `MAX_RETRY_COUNT_V${Math.floor(rand() * 9)} = ${Math.floor(rand() * 9)}`],
    ['checksum', () => `checksum ${d(HEX, 32)} matches`],
    ['phone', () => `call +1 415 555 0${d(DIGITS, 3)}`],
    ['env-reference', () => 'api_key: ${OPENAI_API_KEY}'],
    ['placeholder', () => 'password: <your password here>'],
    ['token-count', () => `tokens used: ${d(DIGITS, 5)}, inputTokens: ${d(DIGITS, 4)}`],
    ['passwordless', () => 'we switched to passwordless login with passkeys'],
    ['token-prose', () => 'the token is expired, refresh it tomorrow'],
    ['password-prose', () => pick(['my password is incorrect apparently', 'the password is required for sudo'])],
    ['korean-password-prose', () => pick(['비밀번호를 바꿨어', '비밀번호는 내일 알려줄게'])],
    ['korean-numbers', () => `3월 ${1 + Math.floor(rand() * 28)}일에 ${d(DIGITS, 4)}번 방에서 만나`],
    ['sk-learn', () => 'scikit-learn is imported as sklearn, the sk-learn-docs are fine'],
    ['token-bucket', () => `the token bucket algorithm refills ${Math.floor(rand() * 90) + 10} tokens per second`],
    ['key-decisions', () => pick(['key decisions: use Postgres 16 and Redis 7', 'Key decisions from the 3rd review are in the doc'])],
    ['password-reset-flow', () => pick(['password reset flow is broken for 2FA users', 'the password reset email takes 10 minutes'])],
    ['key-is-word', () => pick(['the key is simplicity', 'the key is API-first design', 'the login is broken since Monday'])],
    [
      'login-near-pair',
      () =>
        pick([
          'the login / logout buttons moved to the header',
          'my account review is at 10:30 today',
          'the login page offers read / write access',
        ]),
    ],
    ['korean-height', () => `키는 ${170 + Math.floor(rand() * 20)}이야`],
    ['request-uuid-account', () => `account page request ${d(HEX, 8)}-${d(HEX, 4)}-4${d(HEX, 3)}-a${d(HEX, 3)}-${d(HEX, 12)} timed out`],
    ['aws-arn', () => `arn:aws:iam::${d(DIGITS, 12)}:role/Admin`],
    ['isbn', () => `ISBN 978-3-16-${d(DIGITS, 6)}-${d(DIGITS, 1)}`],
  ];
  const out: HarmlessInstance[] = [];
  for (const [cls, make] of classes) for (let n = 0; n < perClass; n++) out.push({ cls, text: make() });
  return out;
}
