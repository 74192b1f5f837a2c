/** The project's trace viewer link (issue 34): set, read back, cleared; bad templates change nothing. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { traceUrl } from '@tracker/core';
import { createHarness, type Harness, type Tenant } from './read-harness';

const SET = `mutation($id: ID!, $t: String) { updateProjectTraceLink(id: $id, template: $t) { id traceUrlTemplate } }`;
const GET = `query($id: ID!) { project(id: $id) { traceUrlTemplate } }`;

describe('updateProjectTraceLink', () => {
  let h: Harness;
  let owner: Tenant;
  before(async () => {
    h = await createHarness();
    owner = await h.tenant();
  });
  after(() => h?.close());

  const stored = async () => (await h.ok(GET, { id: owner.project }, owner.token)).project.traceUrlTemplate;

  test('a template is stored trimmed, read back, and null or blank removes it', async () => {
    assert.equal(await stored(), null);
    const template = 'https://grafana.example.com/explore?trace={traceId}&span={spanId}';
    const d = await h.ok(SET, { id: owner.project, t: `  ${template} ` }, owner.token);
    assert.equal(d.updateProjectTraceLink.traceUrlTemplate, template);
    assert.equal(await stored(), template);
    await h.ok(SET, { id: owner.project, t: '   ' }, owner.token);
    assert.equal(await stored(), null);
    await h.ok(SET, { id: owner.project, t: template }, owner.token);
    await h.ok(SET, { id: owner.project, t: null }, owner.token);
    assert.equal(await stored(), null);
  });

  test('bad templates are BAD_USER_INPUT with the reason, and the stored one stays', async () => {
    const good = 'http://jaeger.internal:16686/trace/{traceId}';
    await h.ok(SET, { id: owner.project, t: good }, owner.token);
    const cases: Array<[string, RegExp]> = [
      ['https://jaeger.example.com/search', /must contain \{traceId\}/],
      ['https://jaeger.example.com/trace/{trace_id}', /unknown placeholder \{trace_id\}/],
      ['javascript:alert(1)//{traceId}', /http or https/],
      ['ftp://files.example.com/{traceId}', /http or https/],
      ['https://user:pw@jaeger.example.com/trace/{traceId}', /credentials/],
      ['{traceId}', /not a URL/],
      [`https://example.com/${'x'.repeat(500)}/{traceId}`, /at most 500/],
    ];
    for (const [t, reason] of cases) {
      const r = await h.run(SET, { id: owner.project, t }, owner.token);
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', t);
      assert.match(r.errors[0].message, reason, t);
    }
    assert.equal(await stored(), good);
  });

  test('the ids are URL-encoded into the template; a missing span id leaves its value empty', () => {
    assert.equal(
      traceUrl('https://t.example.com/{traceId}?s={spanId}', '5b8efff798038103d269b633813fc60c', null),
      'https://t.example.com/5b8efff798038103d269b633813fc60c?s=',
    );
    assert.equal(traceUrl('https://t.example.com/{traceId}', 'a/b?c', 'x'), 'https://t.example.com/a%2Fb%3Fc');
  });
});
