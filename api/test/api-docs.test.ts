/** docs/api.md's examples are real: each ```graphql block parses and validates against the schema. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, validate } from 'graphql';
import { getSchema } from '../src/schema';

test('every GraphQL example in docs/api.md is valid against the schema', async () => {
  const schema = await getSchema();
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const blocks = [...doc.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 10, `only ${blocks.length} examples found`);
  for (const source of blocks) {
    const errors = validate(schema, parse(source));
    assert.deepEqual(
      errors.map((e) => e.message),
      [],
      source.split('\n')[0],
    );
  }
});
