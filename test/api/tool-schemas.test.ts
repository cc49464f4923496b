/**
 * The memory tools' argument schemas (lib/api/tools.ts) are valid JSON Schema: the tools compile them
 * without checking them against the meta-schema at run time, so the check is made here, once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { MEMORY_TOOLS } from '../../lib/api/tools.js';

test("every memory tool's input schema is valid against JSON Schema's meta-schema", () => {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: true });
  // The check can fail: a schema with an unknown type is refused.
  assert.equal(ajv.validateSchema({ type: 'object', properties: { q: { type: 'text' } } }), false);
  assert.ok(MEMORY_TOOLS.length >= 4);
  for (const tool of MEMORY_TOOLS) {
    const valid = ajv.validateSchema(tool.inputSchema);
    assert.equal(valid, true, `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
  }
});
