// The dashboard's GraphQL documents against the API's committed schema, without the API: a field
// renamed on either side fails here (and in typecheck, through the generated types), not first in
// an end-to-end test.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { generate } from '@graphql-codegen/cli';
import {
  buildSchema,
  Kind,
  NoUnusedFragmentsRule,
  parse,
  specifiedRules,
  validate,
  visit,
  type DefinitionNode,
  type FragmentDefinitionNode,
} from 'graphql';
import config from '../codegen.ts';

const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const APP_DIR = join(WEB_DIR, 'app');
const GENERATED_DIR = join(APP_DIR, 'graphql');
const schema = buildSchema(readFileSync(join(WEB_DIR, '../api/schema.graphql'), 'utf8'));

type Source = { file: string; definitions: readonly DefinitionNode[] };

function listSourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === GENERATED_DIR ? [] : listSourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every `graphql(`…`)` in the app, read independently of codegen's own extraction. */
function readSources(): Source[] {
  return listSourceFiles(APP_DIR).flatMap((path) => {
    const file = relative(WEB_DIR, path);
    return [...readFileSync(path, 'utf8').matchAll(/\bgraphql\(\s*`([^`]*)`\s*\)/g)].map((m) => {
      assert.ok(!m[1].includes('${'), `${file}: a document must be one literal, without \${…}`);
      return { file, definitions: parse(m[1]).definitions };
    });
  });
}

const sources = readSources();
const fragments = new Map<string, FragmentDefinitionNode>();
for (const { definitions } of sources) {
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
}

/** The definitions plus every fragment they spread, transitively: the document as it is sent. */
function withFragments(definitions: readonly DefinitionNode[]): DefinitionNode[] {
  const all = [...definitions];
  const seen = new Set(definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [d.name.value] : [])));
  for (let i = 0; i < all.length; i++) {
    visit(all[i], {
      FragmentSpread(node) {
        const fragment = fragments.get(node.name.value);
        if (fragment && !seen.has(node.name.value)) {
          seen.add(node.name.value);
          all.push(fragment);
        }
      },
    });
  }
  return all;
}

test('every dashboard document validates against api/schema.graphql', () => {
  assert.ok(sources.length >= 30, `found only ${sources.length} documents: is the extraction still right?`);
  const problems: string[] = [];
  for (const { file, definitions } of sources) {
    const operations = definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    // A fragment on its own is unused until a query spreads it; everything else still applies.
    const rules = operations.length ? specifiedRules : specifiedRules.filter((r) => r !== NoUnusedFragmentsRule);
    const named = definitions.map((d) => ('name' in d && d.name ? d.name.value : '(anonymous)')).join(', ');
    for (const error of validate(schema, { kind: Kind.DOCUMENT, definitions: withFragments(definitions) }, rules)) {
      problems.push(`${file}: ${named}: ${error.message}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('operation names are unique, so the API logs and the stand-in tell them apart', () => {
  const names = sources.flatMap(({ definitions }) =>
    definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value ?? '(anonymous)'] : [])),
  );
  assert.deepEqual(
    names.filter((n, i) => names.indexOf(n) !== i),
    [],
  );
});

test('the committed app/graphql is what `npm run codegen` generates now', async () => {
  const outputs: { filename: string; content: string }[] = await generate(
    { ...config, cwd: WEB_DIR, silent: true },
    false,
  );
  const committed = readdirSync(GENERATED_DIR).sort();
  assert.deepEqual(
    outputs.map((o) => relative(GENERATED_DIR, join(WEB_DIR, o.filename))).sort(),
    committed,
    'files differ: run `npm run codegen -w @tracker/web`',
  );
  for (const output of outputs) {
    const path = join(WEB_DIR, output.filename);
    assert.ok(
      readFileSync(path, 'utf8') === output.content,
      `${relative(WEB_DIR, path)} is stale: run \`npm run codegen -w @tracker/web\` and commit the result`,
    );
  }
});
