import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, compileIssueQuery, MAX_QUERY_CHARS, MAX_QUERY_TERMS, parseIssueQuery, type QueryTerm } from '../src';

/** The BAD_USER_INPUT message `fn` throws (fails when it throws nothing or something else). */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError, `expected AppError, got ${String(err)}`);
    assert.equal(err.code, 'BAD_USER_INPUT');
    return err.message;
  }
  assert.fail('expected a refusal');
}

function compile(terms: QueryTerm[], now = Date.parse('2026-11-25T12:00:00Z')) {
  const params: unknown[] = ['project'];
  const sql = compileIssueQuery(terms, {
    now,
    userId: '00000000-0000-4000-8000-000000000001',
    projectParam: '$1',
    param: (v) => {
      params.push(v);
      return `$${params.length}`;
    },
  });
  return { sql, params };
}

describe('parseIssueQuery', () => {
  it('reads every key of the language', () => {
    const query =
      'is:unresolved level:error release:1.4.0 environment:production assigned:me user.email:Ann@Example.com ' +
      'user.id:42 browser.name:Chrome first-seen:-24h last-seen:-1h times-seen:>100 message:"card declined" type:TypeError';
    const terms = parseIssueQuery(query);
    const at = (raw: string) => query.indexOf(raw) + 1;
    assert.deepEqual(
      terms.map((t) => t.kind),
      [
        'is',
        'level',
        'release',
        'environment',
        'assigned',
        'user.email',
        'user.id',
        'tag',
        'first-seen',
        'last-seen',
        'times-seen',
        'message',
        'type',
      ],
    );
    assert.deepEqual(terms[5], {
      position: at('user.email:'),
      raw: 'user.email:Ann@Example.com',
      negated: false,
      kind: 'user.email',
      value: 'ann@example.com',
    });
    assert.deepEqual(terms[7], {
      position: at('browser.name'),
      raw: 'browser.name:Chrome',
      negated: false,
      kind: 'tag',
      key: 'browser.name',
      value: 'Chrome',
    });
    assert.deepEqual(terms[8], {
      position: at('first-seen'),
      raw: 'first-seen:-24h',
      negated: false,
      kind: 'first-seen',
      time: { after: true, inclusive: true, agoMs: 86_400_000 },
    });
    assert.deepEqual(terms[10], {
      position: at('times-seen'),
      raw: 'times-seen:>100',
      negated: false,
      kind: 'times-seen',
      op: '>',
      count: 100,
    });
    assert.equal((terms[11] as { value: string }).value, 'card declined');
  });

  it('reads negation, quoted values with escapes and free text', () => {
    const terms = parseIssueQuery('!level:info  "card \\"declined\\"" !timeout checkout\tflow');
    assert.deepEqual(
      terms.map((t) => [t.kind, t.negated, 'value' in t ? t.value : null]),
      [
        ['level', true, 'info'],
        ['text', false, 'card "declined"'],
        ['text', true, 'timeout'],
        ['text', false, 'checkout'],
        ['text', false, 'flow'],
      ],
    );
  });

  it('reads assigned: me, none and an email, and absolute times', () => {
    const [me, none, email, after, before] = parseIssueQuery(
      'assigned:me assigned:none assigned:Bob@Example.com first-seen:>=2026-01-01 last-seen:<2026-02-01T10:00:00Z',
    );
    assert.deepEqual((me as { value: unknown }).value, { me: true });
    assert.deepEqual((none as { value: unknown }).value, { none: true });
    assert.deepEqual((email as { value: unknown }).value, { email: 'bob@example.com' });
    assert.deepEqual((after as { time: unknown }).time, {
      after: true,
      inclusive: true,
      at: new Date('2026-01-01T00:00:00Z'),
    });
    assert.deepEqual((before as { time: unknown }).time, {
      after: false,
      inclusive: false,
      at: new Date('2026-02-01T10:00:00Z'),
    });
  });

  it('answers an empty or blank query with no terms', () => {
    assert.deepEqual(parseIssueQuery(''), []);
    assert.deepEqual(parseIssueQuery('  \t\n '), []);
  });

  it('names the term and its position for bad values', () => {
    assert.match(
      refusal(() => parseIssueQuery('level:error is:unresolvd')),
      /"is:unresolvd" at character 13: is: takes unresolved, resolved, snoozed, regressed/,
    );
    assert.match(
      refusal(() => parseIssueQuery('level:loud')),
      /"level:loud" at character 1: level: takes fatal, error, warning, info/,
    );
    assert.match(
      refusal(() => parseIssueQuery('times-seen:lots')),
      /"times-seen:lots" at character 1: times-seen: takes a whole number/,
    );
    assert.match(
      refusal(() => parseIssueQuery('first-seen:yesterday')),
      /"first-seen:yesterday" at character 1: first-seen: takes -24h/,
    );
    assert.match(
      refusal(() => parseIssueQuery('first-seen:>1/2/2026')),
      /not an ISO 8601 date/,
    );
    assert.match(
      refusal(() => parseIssueQuery('first-seen:-99999999d')),
      /character 1/,
    );
    assert.match(
      refusal(() => parseIssueQuery('assigned:bob')),
      /assigned: takes me, none or a member's email address/,
    );
    assert.match(
      refusal(() => parseIssueQuery('release:')),
      /"release:" at character 1: no value after "release:"/,
    );
    assert.match(
      refusal(() => parseIssueQuery('a :x')),
      /":x" at character 3: a key is missing/,
    );
    assert.match(
      refusal(() => parseIssueQuery('ok ! level:error')),
      /Nothing follows "!" at character 4/,
    );
    assert.match(
      refusal(() => parseIssueQuery('a-very-long-tag-key-that-cannot-be-a-tag:1')),
      /is not a key: use is, level, release/,
    );
  });

  it('refuses unbalanced quotes, saying where the quote opened', () => {
    assert.match(
      refusal(() => parseIssueQuery('message:"card declined')),
      /A quote opened at character 9 is never closed/,
    );
    assert.match(
      refusal(() => parseIssueQuery('"abc \\"')),
      /A quote opened at character 1 is never closed/,
    );
  });

  it('caps the length, the number of terms and the length of a value', () => {
    assert.match(
      refusal(() => parseIssueQuery('a'.repeat(MAX_QUERY_CHARS + 1))),
      /at most 1000 characters/,
    );
    assert.equal(
      parseIssueQuery(Array.from({ length: MAX_QUERY_TERMS }, (_, i) => `w${i}`).join(' ')).length,
      MAX_QUERY_TERMS,
    );
    assert.match(
      refusal(() => parseIssueQuery(Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join(' '))),
      /Too many terms: at most 20 \(the search goes on at character 71\)/,
    );
    assert.match(
      refusal(() => parseIssueQuery(`message:${'x'.repeat(201)}`)),
      /longer than 200 characters/,
    );
  });

  it('reads hostile input in linear time', () => {
    const inputs = [
      '!'.repeat(MAX_QUERY_CHARS),
      '"'.repeat(MAX_QUERY_CHARS),
      ':'.repeat(MAX_QUERY_CHARS),
      '\\'.repeat(MAX_QUERY_CHARS),
      `"${'\\"'.repeat(499)}`,
      `first-seen:>${'9'.repeat(188)}`,
      `assigned:${'a@'.repeat(95)}`,
    ];
    const started = process.hrtime.bigint();
    for (const input of inputs) {
      try {
        parseIssueQuery(input);
      } catch (err) {
        assert.ok(err instanceof AppError && err.code === 'BAD_USER_INPUT', `${input.slice(0, 20)}: ${String(err)}`);
      }
    }
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200);
  });

  it('keeps SQL metacharacters as values: they only ever become parameters', () => {
    const terms = parseIssueQuery(`"'; DROP TABLE issues; --" release:1'or'1 tag$1:%_\\ message:"a\\\\b"`);
    const { sql, params } = compile(terms);
    assert.deepEqual(params, ['project', "%'; DROP TABLE issues; --%", "1'or'1", 'tag$1', '%_\\', '%a\\\\b%']);
    for (const fragment of sql) {
      assert.doesNotMatch(fragment, /DROP|'1|or'|tag\$1/);
    }
  });
});

describe('compileIssueQuery', () => {
  it('compiles each key to a parameterised condition', () => {
    const { sql, params } = compile(
      parseIssueQuery(
        'is:unresolved is:regressed level:fatal environment:prod release:v1 browser.name:Chrome user.id:7 times-seen:<=3',
      ),
    );
    assert.deepEqual(sql, [
      'i.status = $2',
      "(i.is_regression AND i.status = 'open')",
      'i.level = $3',
      'EXISTS (SELECT 1 FROM issue_environments ie WHERE ie.issue_id = i.id AND ie.environment = $4)',
      'EXISTS (SELECT 1 FROM issue_releases ir WHERE ir.issue_id = i.id AND ir.release = $5)',
      'EXISTS (SELECT 1 FROM issue_tag_values tv WHERE tv.project_id = $1 AND tv.issue_id = i.id AND tv.key = $6 AND lower(tv.value) = lower($7))',
      'EXISTS (SELECT 1 FROM issue_tag_values tv WHERE tv.project_id = $1 AND tv.issue_id = i.id AND tv.key = $8 AND lower(tv.value) = lower($9))',
      'i.event_count <= $10::bigint',
    ]);
    assert.deepEqual(params.slice(1), ['open', 'fatal', 'prod', 'v1', 'browser.name', 'Chrome', 'user.id', '7', 3]);
  });

  it('counts relative times back from the clock it is given', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const { sql, params } = compile(parseIssueQuery('first-seen:-24h last-seen:+30m'), now);
    assert.deepEqual(sql, ['i.first_seen >= $2::timestamptz', 'i.last_seen <= $3::timestamptz']);
    assert.deepEqual(params.slice(1), ['2026-11-24T12:00:00.000Z', '2026-11-25T11:30:00.000Z']);
  });

  it('negates with NOT coalesce, so NULL columns stay on the negated side', () => {
    const { sql } = compile(parseIssueQuery('!assigned:me'));
    assert.deepEqual(sql, ['NOT coalesce((i.assignee_id = $2::uuid), false)']);
  });
});
