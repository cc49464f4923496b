/**
 * Kinds of well-known alternatives — databases, hosting, package managers, PDF libraries… — and the words
 * that name each kind. The lifecycle (lifecycle.ts) reads a new choice among one kind as replacing the old
 * ("we'll use SQLite" after "Postgres 16"); search (lib/search/kind-expansion.ts) reads a question that asks
 * which one of a kind ("Which database does it use?") as asking for the members it may name. Only kinds
 * where two members are rarely both current for one project; a word in two kinds counts in neither.
 */
export const KINDS: Readonly<Record<string, readonly string[]>> = {
  database: ['postgres', 'postgresql', 'mysql', 'mariadb', 'sqlite', 'mongodb', 'mongo', 'dynamodb', 'cockroachdb', 'oracle', 'mssql'],
  backend: ['firebase', 'supabase', 'appwrite', 'pocketbase', 'amplify'],
  hosting: [
    'heroku',
    'vercel',
    'netlify',
    'render',
    'railway',
    'fly.io',
    'hetzner',
    'digitalocean',
    'linode',
    'aws',
    'gcp',
    'azure',
    'cloudflare',
  ],
  packages: ['npm', 'yarn', 'pnpm', 'bun', 'pip', 'poetry', 'uv', 'pipenv', 'conda'],
  editor: ['vim', 'neovim', 'emacs', 'vscode', 'cursor', 'zed', 'intellij', 'pycharm', 'webstorm'],
  pdf: ['weasyprint', 'reportlab', 'wkhtmltopdf', 'pdfkit', 'fpdf', 'princexml'],
  email: ['postmark', 'sendgrid', 'mailgun', 'mandrill', 'sparkpost'],
  ci: ['circleci', 'travis', 'buildkite'],
  webframework: ['django', 'flask', 'fastapi', 'laravel', 'nestjs', 'fastify'],
  jstest: ['jest', 'vitest', 'mocha', 'jasmine'],
};

/** Member → its kind. */
export const KIND_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(KINDS).flatMap(([kind, members]) => members.map((m) => [m, kind] as const)),
);

/** How a sentence names each kind itself, in English and Korean ("the database", "DB", "백엔드", "a PDF library"). */
export const KIND_NAMES: Readonly<Record<string, RegExp>> = {
  database: /\b(?:databases?|dbs?|datastores?)\b|데이터베이스|디비|DB/iu,
  backend: /\b(?:backends?|baas)\b|백엔드/iu,
  // The noun, not the verb: "Which hosting provider…?", "What host runs it?", "What is it hosted on?" — not "the party Nate hosted".
  hosting:
    /\bhosting\b(?!\s+(?:an?|the|my|his|her|their|our)\b)|\b(?:which|what)\s+(?:\w+\s+)?hosts?\b(?!\s+(?:an?|the)\b)|\bhosted\s+(?:on|at|with|in)\b|\b(?:is|are|was|were)\s+(?:[\w'’-]+\s+){0,3}hosted\b(?!\s+by)|호스팅/iu,
  packages: /\bpackage managers?\b|패키지 ?매니저/iu,
  editor: /\b(?:editors?|ides?)\b|에디터|편집기/iu,
  pdf: /\bpdfs?\b[^.?!]*\b(?:librar(?:y|ies)|generat\w*|render\w*|tool)|\b(?:librar(?:y|ies)|generat\w*|render\w*|tool)\b[^.?!]*\bpdfs?\b/iu,
  email: /\b(?:e-?mail|mail) (?:services?|providers?|api)\b|(?:이메일|메일) ?서비스/iu,
  ci: /\b(?:ci|continuous integration)\b/iu,
  webframework: /\b(?:web )?frameworks?\b|프레임워크/iu,
  jstest: /\btest (?:frameworks?|runners?)\b|테스트 ?프레임워크/iu,
};
