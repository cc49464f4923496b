/**
 * The REST API's contract (OpenAPI 3.1, served at /api/v1/openapi.json;
 * docs/rest-api.md). The routes (rest.ts) check every request body against
 * the schemas here, and the tests check every answer against them, so the
 * document cannot drift from what the server does. JSON Schema 2020-12.
 */

const text = { type: 'string' } as const;
const priority = { type: 'string', enum: ['high', 'medium', 'low'] } as const;
const category = { type: 'string', pattern: '^[\\p{L}\\p{N}_-]{1,40}$' } as const;
const tag = { type: 'string', pattern: '^#?[\\p{L}\\p{N}_/-]{1,40}$' } as const;

const Mark = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: ['done', 'superseded'] }, date: text, by: text },
  additionalProperties: false,
} as const;

const Provenance = {
  type: 'object',
  required: ['source', 'agent', 'entryIds'],
  properties: { source: text, agent: text, session: text, entryIds: { type: 'array', items: text } },
  additionalProperties: false,
} as const;

const Memory = {
  type: 'object',
  required: [
    'id',
    'date',
    'priority',
    'category',
    'agent',
    'tier',
    'tags',
    'done',
    'mark',
    'pinned',
    'text',
    'path',
    'startLine',
    'endLine',
  ],
  properties: {
    id: { type: 'string', pattern: '^[or]-' },
    date: text,
    time: text,
    priority,
    category: text,
    agent: text,
    tier: { type: 'string', enum: ['hot', 'warm', 'cold'] },
    tags: { type: 'array', items: text },
    done: { type: 'boolean' },
    mark: { anyOf: [{ $ref: '#/components/schemas/Mark' }, { type: 'null' }] },
    pinned: { type: 'boolean' },
    text,
    path: { type: 'string', description: 'The day file, relative to the home (absolute in a vault outside it).' },
    startLine: { type: 'integer', minimum: 1 },
    endLine: { type: 'integer', minimum: 1 },
    provenance: { $ref: '#/components/schemas/Provenance' },
    score: { type: 'number', description: 'Search only: the fused score (relative to the best hit).' },
    relevance: { type: 'number', description: 'Search only: how much of the question it covers (0..1).' },
  },
  additionalProperties: false,
} as const;

const MemoryList = {
  type: 'object',
  required: ['items', 'nextOffset'],
  properties: {
    items: { type: 'array', items: { $ref: '#/components/schemas/Memory' } },
    nextOffset: { type: ['integer', 'null'], description: 'The offset of the next page; null on the last.' },
    mode: { type: 'string', enum: ['text', 'hybrid'], description: 'Search only: how it ranked.' },
    warnings: { type: 'array', items: text },
  },
  additionalProperties: false,
} as const;

const NewMemory = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 2000 },
    priority,
    category: { type: 'string', pattern: '^[a-z][a-z-]{1,30}$' },
    tags: { type: 'array', items: tag, maxItems: 10 },
    agent: { type: 'string', minLength: 1, maxLength: 100, description: 'Whose memory (default main).' },
  },
  additionalProperties: false,
} as const;

const Remembered = {
  type: 'object',
  required: ['added', 'masked', 'memory'],
  properties: {
    added: { type: 'boolean', description: 'false: the same sentence was remembered today already.' },
    masked: { type: 'integer', minimum: 0 },
    memory: { $ref: '#/components/schemas/Memory' },
  },
  additionalProperties: false,
} as const;

const MemoryPatch = {
  type: 'object',
  minProperties: 1,
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 2000 },
    priority,
    category,
    tags: { type: 'array', items: tag, maxItems: 20 },
    pinned: { type: 'boolean' },
    done: { type: 'boolean', description: 'true marks a task done; false reopens it.' },
    supersededBy: {
      type: ['string', 'null'],
      pattern: '^o-',
      description: 'The newer observation that replaces this one; null clears the mark.',
    },
  },
  additionalProperties: false,
} as const;

const Forgotten = {
  type: 'object',
  required: ['forgotten', 'id'],
  properties: { id: text, forgotten: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
} as const;

const ArchiveRequest = {
  type: 'object',
  required: ['olderThanDays'],
  properties: {
    olderThanDays: { type: 'integer', minimum: 0, maximum: 100000 },
    to: { type: 'string', enum: ['warm', 'cold'], description: 'Default cold: proposed for approval.' },
    dryRun: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

const MoveSummary = {
  type: 'object',
  required: ['from', 'to', 'files', 'observations'],
  properties: { from: text, to: text, files: { type: 'integer' }, observations: { type: 'integer' } },
  additionalProperties: false,
} as const;

const Archived = {
  type: 'object',
  required: ['dryRun', 'moved', 'proposed', 'proposals'],
  properties: {
    dryRun: { type: 'boolean' },
    moved: { type: 'array', items: { $ref: '#/components/schemas/MoveSummary' } },
    proposed: { type: 'array', items: { $ref: '#/components/schemas/MoveSummary' } },
    proposals: {
      type: 'array',
      description: 'The proposals now waiting for approval (`ocm-run approvals`, the dashboard).',
      items: {
        type: 'object',
        required: ['id', 'from', 'to', 'date', 'agent', 'observations'],
        properties: { id: text, from: text, to: text, date: text, agent: text, observations: { type: 'integer' } },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const ErrorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'BAD_INPUT, NOT_FOUND, LOCKED, UNAUTHORIZED, FORBIDDEN, …' },
        message: text,
        hint: text,
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const answer = (description: string, ref: string) => ({ description, content: json(ref) });
const ERRORS = {
  '400': answer('The request is wrong (the message names what).', 'Error'),
  '401': answer('No or a wrong Bearer token.', 'Error'),
  '403': answer('A foreign Host or Origin.', 'Error'),
  '409': answer('A job holds the home lock; try again.', 'Error'),
  '500': answer('Something failed inside.', 'Error'),
} as const;
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[or]-[A-Za-z0-9-]{4,}$' } } as const;
const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'OC-Memory REST API',
    version: '1',
    description: 'The memory of one home, served by `ocm-run ui` on 127.0.0.1 (docs/rest-api.md). Every text in an answer is masked.',
  },
  servers: [{ url: '/api/v1' }],
  security: [{ bearer: [] }],
  paths: {
    '/memories': {
      get: {
        summary: 'List observations newest first, or search them (q)',
        parameters: [
          query('q', 'A question: ranked by relevance instead of listed by date.'),
          query('limit', '1–100 (default 20).', { type: 'integer', minimum: 1, maximum: 100 }),
          query('offset', 'Skip this many (the previous page’s nextOffset).', { type: 'integer', minimum: 0 }),
          query('since', 'YYYY-MM-DD, YYYY-MM, today, yesterday, 7d, 2w, 3m, 1y.'),
          query('until', 'Inclusive, same forms as since.'),
          query('priority', 'high, medium, low (comma-separated).'),
          query('category', 'Comma-separated.'),
          query('tier', 'hot, warm, cold (comma-separated).'),
          query('agent', 'Comma-separated.'),
          query('tag', 'Every one of these (comma-separated).'),
          query('current', 'true: leave out done tasks and superseded items.', { type: 'boolean' }),
        ],
        responses: { '200': answer('A page of observations.', 'MemoryList'), ...ERRORS },
      },
      post: {
        summary: 'Remember one observation now (masked, today’s day file of the agent)',
        requestBody: { required: true, content: json('NewMemory') },
        responses: { '201': answer('Written (or already there today: added false).', 'Remembered'), ...ERRORS },
      },
    },
    '/memories/{id}': {
      parameters: [idParam],
      get: {
        summary: 'One observation with its provenance',
        responses: { '200': answer('The observation.', 'Memory'), '404': answer('No such observation.', 'Error'), ...ERRORS },
      },
      patch: {
        summary: 'Change its text, priority, category, tags, pin, done or superseded mark',
        requestBody: { required: true, content: json('MemoryPatch') },
        responses: { '200': answer('The observation as it is now.', 'Memory'), '404': answer('No such observation.', 'Error'), ...ERRORS },
      },
      delete: {
        summary: 'Forget it everywhere (journaled, as `ocm-run forget ID --yes`)',
        responses: { '200': answer('Forgotten.', 'Forgotten'), '404': answer('No such observation.', 'Error'), ...ERRORS },
      },
    },
    '/archive': {
      post: {
        summary: 'Move hot days older than N days to warm, or propose days for the cold tier (as `ocm-run archive`)',
        requestBody: { required: true, content: json('ArchiveRequest') },
        responses: { '200': answer('What moved and what waits for approval.', 'Archived'), ...ERRORS },
      },
    },
  },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'The API token `ocm-run ui --json` prints (apiToken), or $OCM_API_TOKEN when set.',
      },
    },
    schemas: {
      Memory,
      Mark,
      Provenance,
      MemoryList,
      NewMemory,
      Remembered,
      MemoryPatch,
      Forgotten,
      ArchiveRequest,
      Archived,
      MoveSummary,
      Error: ErrorSchema,
    },
  },
} as const;

export type SchemaName = keyof typeof OPENAPI.components.schemas;
