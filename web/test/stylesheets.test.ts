/**
 * The dashboard's stylesheets parse as flat CSS: every rule at the top level or directly in an
 * at-rule (@media, @supports), never inside another rule. A brace lost in a merge does not fail
 * the build: the browser reads the rest of the file as nested rules and drops them (the Monitors
 * page's check strip rendered as a numbered list that way), so it is checked here, with PostCSS's
 * parser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import postcss, { type Rule } from 'postcss';

for (const file of ['styles.css', 'additions.css']) {
  test(`${file}: balanced, and no rule nested in a rule`, () => {
    const path = join(import.meta.dirname, '../app', file);
    const root = postcss.parse(readFileSync(path, 'utf8'), { from: path });
    const nested: string[] = [];
    root.walkRules((rule: Rule) => {
      if (rule.parent?.type === 'rule') nested.push(`line ${rule.source?.start?.line}: ${rule.selector}`);
    });
    assert.deepEqual(nested, []);
  });
}
