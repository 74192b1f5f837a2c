import { API_UNREACHABLE, describeApiStatus, errorTitle, SERVER_FAILED } from '../app/lib/user-messages.ts';
import { splitUrlAtSeparators } from '../app/lib/url-breaks.ts';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bucketLabel, bucketSpan, readChartRange } from '../app/lib/chart-range.ts';
import { describeEventUser } from '../app/lib/event-user.ts';
import { formatPercent } from '../app/lib/format.ts';
import {
  compareCount,
  compareCrashFree,
  compareRate,
  rawHealthFigures,
  type ReleaseHealth,
} from '../app/lib/release-health.ts';
import { safeRedirectPath } from '../app/lib/safe-redirect.ts';
import { toSafeHref } from '../app/lib/safe-url.ts';
import { fillTraceUrl, traceOf } from '../app/lib/trace-link.ts';
import { describeSnooze, parseSnoozeRequest, parseSnoozeUntil } from '../app/lib/snooze.ts';
import { visibleText } from '../app/lib/visible-text.ts';

describe('links from event data', () => {
  test('keeps plain http(s) URLs', () => {
    assert.equal(toSafeHref('https://shop.example/cart?id=1'), 'https://shop.example/cart?id=1');
    assert.equal(toSafeHref('http://localhost:3000/'), 'http://localhost:3000/');
  });

  test('never turns javascript:, data:, vbscript: or disguised schemes into links', () => {
    for (const hostile of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      '/relative/path',
      'https:/\\evil.example',
      '',
    ]) {
      assert.equal(toSafeHref(hostile), null, JSON.stringify(hostile));
    }
  });
});

/** Where a browser goes when it follows `Location: <location>` from a page on `origin`. */
function followedFrom(origin: string, location: string): string {
  return new URL(location, origin).origin;
}

describe('the sign-in redirect target (issue 28, open redirect)', () => {
  const hostile = [
    '/\t/evil.example/phish',
    '/\n/evil.example',
    '/\r/evil.example',
    '\t//evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/a/..//evil.example/x',
    '/./\\evil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '',
    '/\u0000/evil.example',
    '/ /evil.example',
  ];

  test('every form that a browser reads as another host falls back to /', () => {
    for (const to of hostile) {
      const path = safeRedirectPath(to);
      assert.equal(followedFrom('https://tracker.example', path), 'https://tracker.example', JSON.stringify(to));
    }
    // The tab form of the report, and the URL-decoded form of its query string.
    assert.equal(safeRedirectPath(decodeURIComponent('%2F%09%2Fevil.example%2Fphish')), '/');
    assert.equal(safeRedirectPath('/.//evil.example'), '/');
  });

  test('paths on our origin keep their query and fragment, written out as the browser would', () => {
    assert.equal(
      safeRedirectPath('/projects/p1/issues?q=is:unresolved#top'),
      '/projects/p1/issues?q=is:unresolved#top',
    );
    assert.equal(safeRedirectPath('/projects/a b/issues'), '/projects/a%20b/issues');
    // Encoded slashes stay encoded: a path segment on our origin, not a host.
    assert.equal(safeRedirectPath('/%2F%2Fevil.example'), '/%2F%2Fevil.example');
    assert.equal(safeRedirectPath('/%5Cevil.example'), '/%5Cevil.example');
    assert.equal(safeRedirectPath('/settings/../projects'), '/projects');
  });

  test('anything else is the fallback', () => {
    assert.equal(safeRedirectPath(null), '/');
    assert.equal(safeRedirectPath('//evil.example', '/login'), '/login');
  });
});

describe('event text', () => {
  test('shows bidi override characters instead of applying them', () => {
    assert.equal(visibleText('invoice\u202Efdp.exe'), 'invoice[U+202E]fdp.exe');
    assert.equal(visibleText('a\u2066b\u2069c\u200Fd'), 'a[U+2066]b[U+2069]c[U+200F]d');
    assert.equal(visibleText('plain <b>text</b>'), 'plain <b>text</b>');
  });
});

describe('snooze choices', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };

  test('turns a duration or a future date into an ISO time', () => {
    assert.equal(parseSnoozeUntil(form({ duration: '1h' }), now), '2026-01-01T13:00:00.000Z');
    assert.equal(parseSnoozeUntil(form({ duration: '7d' }), now), '2026-01-08T12:00:00.000Z');
    assert.equal(parseSnoozeUntil(form({ until: '2026-02-03' }), now), '2026-02-03T00:00:00.000Z');
  });

  test('refuses unknown durations, malformed and past dates', () => {
    assert.equal(parseSnoozeUntil(form({ duration: '3y' }), now), null);
    assert.equal(parseSnoozeUntil(form({ until: '2025-12-31' }), now), null);
    assert.equal(parseSnoozeUntil(form({ until: 'tomorrow' }), now), null);
    assert.equal(parseSnoozeUntil(form({}), now), null);
  });

  test('the issue page menu: a duration in minutes, N more events or users, or a date', () => {
    assert.deepEqual(parseSnoozeRequest(form({ kind: 'duration', duration: '24h' }), now), { minutes: 1440 });
    assert.deepEqual(parseSnoozeRequest(form({ kind: 'events', count: '100' }), now), { forEvents: 100 });
    assert.deepEqual(parseSnoozeRequest(form({ kind: 'users', count: ' 10 ' }), now), { forUsers: 10 });
    assert.deepEqual(parseSnoozeRequest(form({ kind: 'until', until: '2026-02-03' }), now), {
      until: '2026-02-03T00:00:00.000Z',
    });
    for (const bad of <Array<Record<string, string>>>[
      { kind: 'events', count: '0' },
      { kind: 'users', count: '1.5' },
      { kind: 'events', count: '-3' },
      { kind: 'events', count: '9999999999' },
      { kind: 'duration', duration: '3y' },
      { kind: 'until', until: '2025-01-01' },
      { kind: 'forever' },
    ]) {
      assert.ok('error' in parseSnoozeRequest(form(bad), now), JSON.stringify(bad));
    }
  });

  test('says what ends a count snooze, and how many are left', () => {
    assert.equal(describeSnooze({ kind: 'EVENTS', forEvents: 100, remaining: 37 }), 'until 100 more events (37 to go)');
    assert.equal(describeSnooze({ kind: 'USERS', forUsers: 1, remaining: 1 }), 'until 1 more user (1 to go)');
    assert.equal(describeSnooze({ kind: 'MINUTES' }), null);
    assert.equal(describeSnooze(null), null);
  });
});

describe('event users and shares', () => {
  test('names the user by id with the email, else email, username or IP; null for nobody', () => {
    assert.equal(describeEventUser({ id: 'u1', email: 'ada@example.com' }), 'u1 (ada@example.com)');
    assert.equal(describeEventUser({ id: 42 }), '42');
    assert.equal(describeEventUser({ email: 'ada@example.com', username: 'ada' }), 'ada@example.com');
    assert.equal(describeEventUser({ username: 'ada', ip_address: '10.0.0.1' }), 'ada');
    assert.equal(describeEventUser({ ip_address: '10.0.0.1' }), '10.0.0.1');
    // Only strings and finite numbers: an object or array the SDK sent is not shown.
    assert.equal(describeEventUser({ id: { toString: 'x' }, email: ['a'], username: '  ' }), null);
    assert.equal(describeEventUser({}), null);
    assert.equal(describeEventUser(null), null);
  });

  test('percentages are whole, never a misleading 0% for a present share', () => {
    assert.equal(formatPercent(6, 10), '60%');
    assert.equal(formatPercent(1, 3), '33%');
    assert.equal(formatPercent(1, 1000), '<1%');
    assert.equal(formatPercent(0, 10), '0%');
    assert.equal(formatPercent(1, 0), '—');
  });
});

describe('release health against the previous release', () => {
  const health = (over: Partial<ReleaseHealth>): ReleaseHealth => ({
    issuesIntroduced: 0,
    regressions: 0,
    usersSeen: 0,
    crashedUsers: 0,
    crashFreeUsers: null,
    windowEvents: 0,
    enoughData: true,
    eventsPerHour: null,
    previousVersion: '1.4.0',
    previousIssuesIntroduced: 0,
    previousRegressions: 0,
    previousCrashFreeUsers: null,
    previousEventsPerHour: null,
    eventsPerHourRatio: null,
    ...over,
  });

  test('counts: the signed difference, fewer is better; the first release compares with nothing', () => {
    assert.deepEqual(compareCount(1, 3, '1.4.0'), {
      value: '1',
      change: '\u22122 vs 1.4.0',
      previous: 'was 3',
      direction: 'better',
    });
    assert.equal(compareCount(2, 2, '1.4.0').change, '±0 vs 1.4.0');
    assert.equal(compareCount(2, 2, '1.4.0').direction, 'same');
    assert.deepEqual(compareCount(1200, null, null), { value: '1,200', change: null, previous: null, direction: null });
  });

  test('crash-free users differ in points, and a change that rounds to nothing is not coloured', () => {
    assert.equal(compareCrashFree(0.975, 0.99, '1.4.0').change, '\u22121.5 pts vs 1.4.0');
    assert.equal(compareCrashFree(0.975, 0.99, '1.4.0').direction, 'worse');
    assert.equal(compareCrashFree(0.99, 0.975, '1.4.0').direction, 'better');
    assert.deepEqual(compareCrashFree(0.99001, 0.99, '1.4.0'), {
      value: '99 %',
      change: '±0 pts vs 1.4.0',
      previous: 'was 99 %',
      direction: 'same',
    });
    assert.equal(compareCrashFree(0.5, null, '1.4.0').change, '1.4.0 named no users');
    assert.equal(compareCrashFree(null, 0.5, '1.4.0').value, '—');
    assert.deepEqual(compareCrashFree(null, null, '1.4.0'), {
      value: '—',
      change: null,
      previous: null,
      direction: null,
    });
  });

  test('events per hour: a percentage of the previous rate, an absolute change after a silent one', () => {
    const faster = compareRate(health({ eventsPerHour: 12.5, previousEventsPerHour: 10, eventsPerHourRatio: 1.25 }));
    assert.deepEqual(faster, { value: '12.5', change: '+25 % vs 1.4.0', previous: 'was 10', direction: 'worse' });
    const quieter = compareRate(health({ eventsPerHour: 250, previousEventsPerHour: 1000, eventsPerHourRatio: 0.25 }));
    assert.deepEqual(quieter, {
      value: '250',
      change: '\u221275 % vs 1.4.0',
      previous: 'was 1,000',
      direction: 'better',
    });
    // No ratio when the previous release had no events: "+∞ %" would say nothing.
    const afterSilence = compareRate(
      health({ eventsPerHour: 0.4, previousEventsPerHour: 0, eventsPerHourRatio: null }),
    );
    assert.deepEqual(afterSilence, { value: '0.4', change: '+0.4 vs 1.4.0', previous: 'was 0', direction: 'worse' });
    assert.equal(
      compareRate(health({ eventsPerHour: 1911.8, previousEventsPerHour: 0, eventsPerHourRatio: null })).change,
      '+1,912 vs 1.4.0',
    );
    assert.equal(compareRate(health({ eventsPerHour: 3, previousVersion: null })).change, null);
  });

  test('below the minimum sample: raw counts and "not enough data yet", never a rate or a change', () => {
    // One event a minute after the deploy, one user who crashed.
    const figures = rawHealthFigures(
      health({
        issuesIntroduced: 1,
        windowEvents: 1,
        usersSeen: 1,
        crashedUsers: 1,
        crashFreeUsers: 0,
        enoughData: false,
      }),
    );
    assert.deepEqual(
      figures.map((f) => [f.value, f.previous]),
      [
        ['1', null],
        ['0', null],
        ['1 crashed', 'of 1 user'],
        ['1 event', 'not enough data yet'],
      ],
    );
    assert.ok(figures.every((f) => f.change === null && f.direction === null));
    assert.ok(!figures.some((f) => /%|\/h/.test(f.value)), 'no share, no rate');
  });
});

describe('URLs break at their separators', () => {
  test('after / ? & = - and before a dot, never between the slashes of //; the pieces join back to the URL', () => {
    const url = 'https://shop.example/checkout/confirm?utm_source=mail&item=mug';
    const pieces = splitUrlAtSeparators(url);
    assert.deepEqual(pieces, [
      'https://',
      'shop',
      '.example/',
      'checkout/',
      'confirm?',
      'utm_source=',
      'mail&',
      'item=',
      'mug',
    ]);
    assert.equal(pieces.join(''), url);
    assert.deepEqual(splitUrlAtSeparators('/'), ['/']);
    assert.deepEqual(splitUrlAtSeparators(''), []);
    assert.deepEqual(splitUrlAtSeparators('.env'), ['.env']);
    assert.deepEqual(splitUrlAtSeparators('/confirm-order'), ['/', 'confirm-', 'order']);
  });
});

describe("messages when the API cannot answer are in the user's words", () => {
  test('a status says why, without protocol names', () => {
    assert.equal(describeApiStatus(429, 12), 'Too many requests from this session: wait 12 seconds and try again.');
    assert.equal(describeApiStatus(429, null), 'Too many requests from this session: wait a moment and try again.');
    assert.match(describeApiStatus(503, null), /starting, stopping or overloaded/);
    for (const status of [400, 413, 429, 500, 502, 503, 504]) {
      assert.doesNotMatch(describeApiStatus(status, 1), /GraphQL|HTTP|API|unexpected/i);
    }
    assert.doesNotMatch(API_UNREACHABLE + SERVER_FAILED, /GraphQL|HTTP|API|unexpected/i);
  });

  test('error pages are titled in words, not numbers', () => {
    assert.deepEqual([404, 403, 402, 429, 400, 500, 503].map(errorTitle), [
      'Not found',
      'Not allowed',
      'Not included in this plan',
      'Too many requests',
      'That did not work',
      'Tracker is not available',
      'Tracker is not available',
    ]);
  });
});

describe('issue chart ticks and tooltips', () => {
  test('a 7- or 30-day chart dates its axis, and each column says which span it counts', () => {
    const ts = '2026-01-01T06:00:00.000Z';
    assert.equal(bucketLabel(ts, '7d'), '1 Jan 06:00');
    assert.equal(bucketLabel(ts, '30d'), '1 Jan');
    assert.equal(bucketLabel(ts, '24h'), '06:00');
    assert.equal(bucketSpan(ts, readChartRange('7d')), '1 Jan 2026, 06:00–12:00 UTC');
    assert.equal(bucketSpan(ts, readChartRange('1h')), '1 Jan 2026, 06:00–06:05 UTC');
    assert.equal(bucketSpan('2026-01-01T00:00:00.000Z', readChartRange('30d')), '1 Jan 2026 UTC');
  });
});

describe('trace links (issue 34)', () => {
  const TRACE = '5b8efff798038103d269b633813fc60c';
  test("the trace of an OTLP event's context, or of Sentry's contexts.trace; ids of another shape are not ids", () => {
    assert.deepEqual(traceOf({ trace_id: TRACE, span_id: 'eee19b7ec3c1b174' }), {
      traceId: TRACE,
      spanId: 'eee19b7ec3c1b174',
    });
    assert.deepEqual(traceOf({ trace: { trace_id: TRACE, op: 'http.server' } }), { traceId: TRACE, spanId: null });
    for (const context of [null, [], { trace_id: 'short' }, { trace_id: `${TRACE}<script>` }, { trace: 'x' }])
      assert.equal(traceOf(context), null, JSON.stringify(context));
  });

  test('the template filled in, encoded; never a link that is not http(s)', () => {
    assert.equal(
      fillTraceUrl('https://jaeger.example.com/trace/{traceId}?uiFind={spanId}', TRACE, null),
      `https://jaeger.example.com/trace/${TRACE}?uiFind=`,
    );
    assert.equal(fillTraceUrl('javascript:alert(1)//{traceId}', TRACE, null), null);
    assert.equal(fillTraceUrl('//evil.example/{traceId}', TRACE, null), null);
  });
});

describe('readMonitorForm', async () => {
  const { readMonitorForm } = await import('../app/features/monitors/monitor-form.server.ts');
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  test('blank fields are left out, so an edit keeps them', () => {
    assert.deepEqual(readMonitorForm(form({ name: ' Backup ', schedule: '', margin: '' }), 'CRON'), {
      input: { slug: undefined, name: 'Backup' },
    });
  });
  test('a crontab takes its time zone (UTC by default); minutes are an interval', () => {
    assert.deepEqual(readMonitorForm(form({ schedule: '0 2 * * *' }), 'CRON'), {
      input: { slug: undefined, name: undefined, crontab: '0 2 * * *', timezone: 'UTC' },
    });
    assert.deepEqual(readMonitorForm(form({ schedule: '15', failureTolerance: '3' }), 'CRON'), {
      input: { slug: undefined, name: undefined, intervalMinutes: 15, failureTolerance: 3 },
    });
  });
  test('uptime: the URL and a whole number of minutes; anything else is refused before sending', () => {
    assert.deepEqual(readMonitorForm(form({ url: 'https://a.example/', schedule: '5', timeout: '10' }), 'UPTIME'), {
      input: { slug: undefined, name: undefined, url: 'https://a.example/', intervalMinutes: 5, timeoutSeconds: 10 },
    });
    assert.deepEqual(readMonitorForm(form({ schedule: '*/5 * * * *' }), 'UPTIME'), {
      error: 'Check every: a whole number of minutes (1–60).',
    });
    assert.deepEqual(readMonitorForm(form({ schedule: '5', margin: '-1' }), 'CRON'), {
      error: 'Margin: a whole number.',
    });
  });
});
