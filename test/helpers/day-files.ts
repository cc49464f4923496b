/** Day files for tests, as written before the provenance block: the map in the frontmatter (README "File formats"). */

export const DAY_BODY = `# 2026-02-12

- 🔴 09:15 [preference] User prefers TypeScript over JavaScript. #typescript ^o-7f3a9c21e0
- 🔴 10:30 [decision] PostgreSQL is the main database. #postgres ^o-0b41d2e8aa
`;

export const LEGACY_DAY = `---
date: 2026-02-12
tier: hot
agent: main
observations: 2
tags: [postgres, typescript]
provenance:
  o-7f3a9c21e0: openclaw main s1 a1b2c3d4
  o-0b41d2e8aa: openclaw main s1 e5f6a7b8
---
${DAY_BODY}`;
