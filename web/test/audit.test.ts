// The audit page's own logic: its action labels against core's list, the URL's filters, and
// the CSV cells (quoting, and formulas defused: actor emails and target names are user input).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUDIT_ACTIONS } from '../../core/src/audit/audit-actions';
import { AUDIT_ACTION_LABELS } from '../app/features/audit/audit-actions';
import { csvCell } from '../app/features/audit/audit-csv.server';
import { auditFilterOf, auditSearch, readAuditParams } from '../app/features/audit/audit-params';

test('labels every action core records, and nothing else', () => {
  assert.deepEqual(Object.keys(AUDIT_ACTION_LABELS).sort(), [...AUDIT_ACTIONS].sort());
});

test('reads the filters from the URL and drops what the API would refuse', () => {
  const p = readAuditParams(
    new URL(
      'https://t.example/orgs/a/audit?actor=%20Ada@Example.com%20&action=member.removed&since=2026-11-01&after=42',
    ),
  );
  assert.deepEqual(p, { actor: 'Ada@Example.com', action: 'member.removed', since: '2026-11-01', after: '42' });
  assert.deepEqual(auditFilterOf(p), {
    actor: 'Ada@Example.com',
    action: 'member.removed',
    since: '2026-11-01T00:00:00.000Z',
  });
  assert.equal(auditSearch(p, '7'), '?actor=Ada%40Example.com&action=member.removed&since=2026-11-01&after=7');
  const bad = readAuditParams(new URL("https://t.example/a?action=drop%20table&since=yesterday&after=1'--"));
  assert.deepEqual(bad, { actor: '', action: '', since: '', after: null });
  assert.deepEqual(auditFilterOf(bad), {});
});

test('CSV cells are quoted when needed and never start a formula', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('-1'), "'-1");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
});
