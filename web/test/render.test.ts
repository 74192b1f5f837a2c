// Guards the web layer on its own: the real server build, rendered by Remix's request handler,
// against a canned GraphQL stand-in. End-to-end tests against the real API live with the server.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createRequestHandler, type RequestHandler, type ServerBuild } from '@remix-run/node';
import type * as Api from '../app/graphql/graphql';

const VALID_TOKEN = 'token-valid';
const EXPIRED_TOKEN = 'token-expired';
const PASSWORD = 'correct horse battery';
const XSS_TITLE = '<img src=x onerror=alert(1)>';
const XSS_CULPRIT = '</script><script>alert(2)</script>';

type GraphQLBody = { query: string; variables: Record<string, unknown>; operationName?: string };
type Answer = { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };

const fail = (code: string, message: string): Answer => ({ errors: [{ message, extensions: { code } }] });
/**
 * A canned answer typed by the operation's generated result type (app/graphql), so a field renamed
 * in a document or in the schema breaks typecheck here as it does in the page.
 */
const ok = <T>(data: T): Answer => ({ data });

const project = {
  id: 'p1',
  name: 'Checkout <web>',
  dsn: 'http://et_key@127.0.0.1:3000/ingest/error',
  organizationId: 'o1',
  traceUrlTemplate: null,
};
/** A project of a second organization, on Pro: release health is shown there. */
const proProject = { ...project, id: 'p2', name: 'Storefront', organizationId: 'o2' };
const viewer: NonNullable<Api.ViewerQuery['viewer']> = {
  id: 'u1',
  email: 'ada@example.com',
  isInstanceAdmin: false,
  twoFactorEnrolmentRequired: false,
  organizations: [
    { id: 'o1', slug: 'acme', name: 'Acme', plan: 'free', projects: [{ id: 'p1', name: project.name }] },
    { id: 'o2', slug: 'globex', name: 'Globex', plan: 'pro', projects: [{ id: 'p2', name: proProject.name }] },
  ],
};
const projects = [project, proProject];

/**
 * The API's plan catalogue (core's table). Deliberately not the plan table's exact figures (docs/quotas.md) for logs, so
 * a page that printed its own copy instead of this answer would show in the assertions.
 */
const plans: Api.PlanFieldsFragment[] = [
  { id: 'free', name: 'Free', eventsPerMonth: 5000, logsPerMonth: 40000, retentionDays: 30, releaseHealth: false },
  { id: 'pro', name: 'Pro', eventsPerMonth: 100000, logsPerMonth: 900000, retentionDays: 90, releaseHealth: true },
  {
    id: 'business',
    name: 'Business',
    eventsPerMonth: 1000000,
    logsPerMonth: 9000000,
    retentionDays: 365,
    releaseHealth: true,
  },
];

const release = (id: string, version: string, environment: string, deployedAt: string) => ({
  id,
  version,
  environment,
  deployedAt,
  // What sentry-cli added (finalize, set-commits): on 1.0.0 in production only.
  dateReleased: id === 'r1' ? '2026-01-01T01:00:00Z' : null,
  commits:
    id === 'r1'
      ? [
          {
            id: '62aaca3ed186edc7671b4cca0ab6ec53cb7de8b5',
            repository: 'shop',
            authorName: XSS_CULPRIT,
            authorEmail: 'ada@example.com',
            message: `Cart: ${XSS_TITLE}\n\nsecond line`,
            timestamp: '2025-12-31T12:00:00Z',
          },
        ]
      : [],
});
const releasesOf: Record<string, ReturnType<typeof release>[]> = {
  p1: [
    release('r2', XSS_TITLE, 'production', '2026-01-02T00:00:00Z'),
    release('r1', '1.0.0', 'production', '2026-01-01T00:00:00Z'),
    release('r3', '1.0.0', 'staging', '2025-12-31T00:00:00Z'),
  ],
  p2: [
    release('r23', '1.5.0', 'production', '2026-01-03T00:00:00Z'),
    release('r22', '1.4.0', 'production', '2026-01-02T00:00:00Z'),
    release('r25', '2.0.0', 'staging', '2026-01-02T12:00:00Z'),
    release('r24', XSS_TITLE, 'staging', '2026-01-01T00:00:00Z'),
  ],
};
const noPrevious = {
  previousVersion: null,
  previousIssuesIntroduced: null,
  previousRegressions: null,
  previousCrashFreeUsers: null,
  previousEventsPerHour: null,
  eventsPerHourRatio: null,
};
/** Release health as the API answers it: every figure with the previous deploy's. */
const healthOf: Record<string, Record<string, unknown>> = {
  // 1.5.0 against 1.4.0: 1 → 3 new issues, 2 → 0 regressions, 99 % → 95 % crash-free, 10 → 11.2 events/h.
  r23: {
    issuesIntroduced: 3,
    regressions: 0,
    usersSeen: 40,
    crashFreeUsers: 0.95,
    eventsPerHour: 11.2,
    previousVersion: '1.4.0',
    previousIssuesIntroduced: 1,
    previousRegressions: 2,
    previousCrashFreeUsers: 0.99,
    previousEventsPerHour: 10,
    eventsPerHourRatio: 1.12,
  },
  // The first release of production: nothing to compare with. Its figures come from Sentry
  // sessions (issue 30): 4 of 5 sessions and 3 of 4 users crash-free.
  r22: {
    issuesIntroduced: 1,
    regressions: 2,
    basis: 'SESSIONS',
    crashFreeSessions: 0.8,
    sessions: { started: 5 },
    usersSeen: 4,
    crashedUsers: 1,
    crashFreeUsers: 0.75,
    eventsPerHour: 10,
    ...noPrevious,
  },
  // Staging: the previous release's name is hostile text; this one's events named no user.
  r25: {
    issuesIntroduced: 0,
    regressions: 0,
    usersSeen: 0,
    crashFreeUsers: null,
    eventsPerHour: 0.5,
    previousVersion: XSS_TITLE,
    previousIssuesIntroduced: 0,
    previousRegressions: 1,
    previousCrashFreeUsers: 1,
    previousEventsPerHour: 1,
    eventsPerHourRatio: 0.5,
  },
  r24: { issuesIntroduced: 2, regressions: 1, usersSeen: 2, crashFreeUsers: 1, eventsPerHour: 1, ...noPrevious },
};

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The release detail page (issue 31): a known version of p1 (Free: no health asked for), else null. */
function releaseDetailAnswer(variables: Record<string, unknown>): Answer {
  const found = projects.find((p) => p.id === variables.projectId);
  if (!found) return fail('NOT_FOUND', 'Project not found');
  const deploys = releasesOf[found.id].filter((r) => r.version === variables.version);
  const empty = { totalCount: 0, nodes: [] };
  return ok<Api.ReleaseDetailQuery>({
    project: { id: found.id, organizationId: found.organizationId },
    viewer,
    plans,
    release:
      deploys.length === 0
        ? null
        : {
            version: deploys[0].version,
            dateCreated: '2025-12-31T00:00:00Z',
            dateReleased: null,
            deploys: deploys.map(({ id, environment, deployedAt }) => ({ id, environment, deployedAt })),
            newIssues: {
              totalCount: 30,
              nodes: [
                {
                  environments: ['production'],
                  at: '2026-01-01T00:10:00Z',
                  issue: {
                    id: 'i1',
                    title: XSS_TITLE,
                    culprit: XSS_CULPRIT,
                    level: 'ERROR',
                    status: 'OPEN',
                    isRegression: false,
                    eventCount: 3,
                    userCount: 1,
                    lastSeen: '2026-01-01T00:20:00Z',
                  },
                },
              ],
            },
            regressedIssues: empty,
            resolvedIssues: empty,
            sourceMaps: {
              totalCount: 1,
              totalBytes: 1536,
              nodes: [{ filename: 'main.js.map', sizeBytes: 1536, uploadedAt: '2026-01-01T00:00:00Z' }],
            },
            artifactBundles: [],
            commits: deploys[0].commits,
          },
  });
}

/** The releases query: the project, its organization (through the viewer), the plans and the list. */
function releasesAnswer(variables: Record<string, unknown>): Answer {
  const found = projects.find((p) => p.id === variables.projectId);
  if (!found) return ok<Api.ProjectReleasesQuery>({ project: null, viewer, plans, releases: [] });
  return ok<Api.ProjectReleasesQuery>({
    project: { id: found.id, organizationId: found.organizationId },
    viewer,
    plans,
    releases: releasesOf[found.id],
  });
}

/** What the real API does on Free: each health field is PLAN_REQUIRED. */
function releaseHealthAnswer(variables: Record<string, unknown>): Answer {
  const found = projects.find((p) => p.id === variables.projectId);
  const org = viewer.organizations.find((o) => o.id === found?.organizationId);
  const list = found ? releasesOf[found.id] : [];
  if (org && !plans.find((p) => p.id === org.plan)?.releaseHealth) {
    return {
      data: { releases: list.map((r) => ({ ...r, health: null })) },
      errors: list.map(() => ({ message: 'release health is not included', extensions: { code: 'PLAN_REQUIRED' } })),
    };
  }
  // Every release of the stand-in has run long enough for a rate (Release.health.enoughData).
  const health = (id: string) =>
    healthOf[id] ? { enoughData: true, windowEvents: 500, crashedUsers: 0, ...healthOf[id] } : null;
  return { data: { releases: list.map((r) => ({ ...r, health: health(r.id) })) } };
}
const issue = (id: string, title: string, culprit: string | null) => ({
  id,
  title,
  culprit,
  level: 'ERROR' as const,
  status: 'OPEN' as const,
  isRegression: false,
  eventCount: 1234,
  userCount: 7,
  lastSeen: new Date(Date.now() - 5 * 60_000).toISOString(),
  assignee: id === 'i1' ? { id: 'u1', email: 'ada@example.com' } : null,
  series: [0, 2, 4].map((count, h) => ({ ts: new Date(Date.UTC(2026, 0, 1, h)).toISOString(), count })),
});

const frame = (fn: string, inApp: boolean): Api.StackFrameFieldsFragment => ({
  filename: 'webpack:///src/cart.ts',
  function: fn,
  lineno: 12,
  colno: 3,
  inApp,
  minified: { filename: 'https://cdn.example/app.min.js', function: 'a', lineno: 1, colno: 999 },
  context: { pre: ['const a = 1;'], line: `throw new Error("${XSS_CULPRIT}")`, post: ['}'] },
  vars: inApp ? [{ name: 'cartId', value: '<img src=x onerror=alert(6)>' }] : [],
});
/** `Event.exceptions`: the thrown error with these frames, then its causes. */
const chain = (frames: Api.StackFrameFieldsFragment[], causes: Api.EventDetailFieldsFragment['exceptions'] = []) => [
  { type: 'Error', value: 'boom', frames },
  ...causes,
];
/** The injection corpus for event-written text on the issue page. */
const INJECTION = {
  script: '<script>alert(1)</script>',
  jsUrl: 'javascript:alert(1)',
  svg: '<svg onload=alert(1)>',
  bidi: 'invoice\u202Efdp.exe',
};
const hostileEvent = (id: string, eventId: string, message: string, user: Record<string, unknown> | null) => ({
  id,
  eventId,
  message,
  logMessage: null as string | null,
  environment: 'production',
  release: '1.0.0',
  timestamp: '2026-01-01T00:00:00Z',
  user,
});
/** What `event(id)` adds to a list row: everything else the SDK sent, hostile where it can be. */
const eventExtras: Pick<
  Api.EventDetailFieldsFragment,
  | 'type'
  | 'level'
  | 'handled'
  | 'tags'
  | 'context'
  | 'sdk'
  | 'fingerprint'
  | 'breadcrumbs'
  | 'request'
  | 'componentStack'
  | 'navigation'
> = {
  breadcrumbs: [
    { timestamp: '2025-12-31T23:59:57.500Z', category: 'navigation', message: '/cart', level: 'info', data: null },
    {
      timestamp: '2025-12-31T23:59:59.000Z',
      category: '<b>http</b>',
      message: null,
      level: 'error',
      data: { url: '/api/cart', status_code: 500, note: '<script>alert(7)</script>' },
    },
  ],
  request: {
    method: 'POST',
    url: 'javascript:alert(8)',
    queryString: 'q=<svg onload=alert(9)>',
    headers: [
      { name: 'Accept', value: 'text/html' },
      { name: 'Cookie', value: '[Filtered]' },
    ],
    data: { sku: 'A-1', qty: 2 },
  },
  componentStack: '\n    at CartItem\n    at <script>alert(10)</script>',
  navigation: { oldest: '101', older: '102', newer: null, latest: null },
  type: 'Error',
  level: 'FATAL',
  handled: false,
  tags: [
    { key: 'browser', value: 'Chrome 131' },
    { key: 'device', value: 'iPhone' },
    { key: INJECTION.svg, value: INJECTION.bidi },
  ],
  context: {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X)',
    cart: { items: [{ sku: 'A-1', qty: 2 }], coupon: null, total: 12.5, paid: false },
    deep: { a: { b: { c: INJECTION.script } } },
    [INJECTION.svg]: `${INJECTION.jsUrl}\n${INJECTION.bidi}`,
    empty: {},
  },
  sdk: { name: 'tracker.browser', version: '0.5.0' },
  fingerprint: ['checkout', INJECTION.script],
};
/** Event details by Tracker id, as `event(id)` answers them; 999 belongs to another issue. */
const eventDetails: Record<string, Api.EventDetailFieldsFragment & { issueId: string }> = {
  '103': {
    ...hostileEvent('103', 'e1', XSS_TITLE, {
      id: 'u-1',
      email: 'ada@example.com',
      username: 'ada',
      ip_address: '203.0.113.9',
      plan: { name: 'pro', seats: 3 },
      [INJECTION.script]: INJECTION.svg,
    }),
    ...eventExtras,
    issueId: 'i2',
    url: 'javascript:alert(3)',
    exceptions: chain(
      [frame('addItem', true), frame('<svg onload=alert(4)>', false)],
      [{ type: 'RangeError', value: 'index <out> of range', frames: [frame('readIndex', true)] }],
    ),
  },
  '104': {
    ...hostileEvent('104', 'e4', XSS_TITLE, { id: 'u-1' }),
    ...eventExtras,
    // Logged with its exception (Python's logging.exception): shown above the exception's message.
    logMessage: `charging order ${INJECTION.script} failed`,
    issueId: 'i2',
    url: null,
    release: '2.0.0',
    context: {
      _meta: {
        sourceMaps: {
          release: `2.0.0 ${INJECTION.script}`,
          releaseHasMaps: false,
          missing: ['https://cdn.example/static/app.min.js', `/srv/${INJECTION.svg}.js`, 42],
        },
      },
    } as unknown as Api.EventDetailFieldsFragment['context'],
    exceptions: chain([frame('u', true)]),
  },
  '102': {
    ...hostileEvent('102', 'e2', `${INJECTION.script} ${INJECTION.svg} ${INJECTION.bidi}`, { id: INJECTION.svg }),
    ...eventExtras,
    type: 'TypeError',
    level: 'WARNING',
    handled: true,
    tags: [],
    context: null,
    sdk: null,
    fingerprint: null,
    issueId: 'i2',
    url: INJECTION.jsUrl,
    exceptions: chain([frame('checkoutOlder', true)]),
    breadcrumbs: [],
    request: null,
    componentStack: null,
    navigation: { oldest: '101', older: '101', newer: '103', latest: '103' },
  },
  '999': {
    ...hostileEvent('999', 'e-elsewhere', 'secret of another issue', null),
    ...eventExtras,
    issueId: 'i3',
    url: null,
    exceptions: chain([frame('elsewhere', true)]),
  },
};
/** `events(first, after)` of the hostile issue: two pages. */
function hostileEventsPage(after: unknown) {
  if (after === 'ev-cursor-2')
    return {
      pageInfo: { hasNextPage: false, endCursor: 'ev-cursor-3' },
      nodes: [hostileEvent('101', 'e0', 'the oldest one', null)],
    };
  return {
    pageInfo: { hasNextPage: true, endCursor: 'ev-cursor-2' },
    nodes: [
      hostileEvent('103', 'e1', XSS_TITLE, { id: 'u-1', email: 'ada@example.com' }),
      {
        ...hostileEvent('102', 'e2', `${INJECTION.script} ${INJECTION.jsUrl}`, { id: INJECTION.svg }),
        release: INJECTION.bidi,
      },
    ],
  };
}
const hostileIssue: Omit<NonNullable<Api.IssueDetailQuery['issue']>, 'events'> = {
  ...issue('i2', XSS_TITLE, XSS_CULPRIT),
  projectId: 'p1',
  type: 'Error',
  status: 'RESOLVED',
  isRegression: true,
  firstSeen: '2026-01-01T00:00:00Z',
  resolvedAt: '2026-01-02T00:00:00Z',
  snoozedUntil: null,
  snooze: null,
  discarded: false,
  discardedAt: null,
  mergedIssueCount: 0,
  alertsMutedUntil: null,
  resolvedInRelease: { version: 'v\u202Egnp.exe', environment: 'production', deployedAt: '2026-01-02T00:00:00Z' },
  suspectCommits: [
    {
      release: '1.0.0',
      files: ['src/cart.ts'],
      commit: {
        id: '62aaca3ed186edc7671b4cca0ab6ec53cb7de8b5',
        repository: 'shop',
        authorName: XSS_CULPRIT,
        authorEmail: 'ada@example.com',
        message: `Cart: ${XSS_TITLE}\nmore`,
        timestamp: '2025-12-31T12:00:00Z',
      },
    },
  ],
  releases: [
    {
      version: '1.0.0',
      environment: 'production',
      firstSeen: '2026-01-01T00:00:00Z',
      lastSeen: '2026-01-01T00:00:00Z',
      eventCount: 3,
    },
  ],
  tags: [
    // 6 + 3 of 10 events: one event carries a value outside the top ones ("Other values").
    {
      key: 'browser',
      count: 10,
      values: [
        { value: 'Chrome', count: 6 },
        { value: INJECTION.script, count: 3 },
      ],
    },
    {
      key: INJECTION.svg,
      count: 2,
      values: [
        { value: INJECTION.jsUrl, count: 1 },
        { value: INJECTION.bidi, count: 1 },
      ],
    },
  ],
  latestEvent: eventDetails['103'],
  assignee: { id: 'u1', email: XSS_TITLE },
  activity: [
    {
      id: 'a3',
      kind: 'COMMENTED',
      actor: { id: 'u1', email: 'ada@example.com' },
      createdAt: '2026-01-03T00:00:00Z',
      message: 'ignored: the comment is shown',
      comment: {
        id: 'c1',
        body: `see https://example.com/a?b=1. and ${INJECTION.jsUrl} ${INJECTION.script} ${INJECTION.bidi}`,
        createdAt: '2026-01-03T00:00:00Z',
        updatedAt: '2026-01-03T00:05:00Z',
        editable: true,
      },
    },
    {
      id: 'a2',
      kind: 'REGRESSED',
      actor: null,
      createdAt: '2026-01-02T12:10:00Z',
      message: `event in release ${INJECTION.svg}, deployed 2026-01-02 12:03 UTC to production, after resolved in 1.3.2`,
      comment: null,
    },
    {
      id: 'a1',
      kind: 'FIRST_SEEN',
      actor: null,
      createdAt: '2026-01-01T00:00:00Z',
      message: 'First seen in release 1.3.2 (production)',
      comment: null,
    },
  ],
  feedback: [
    {
      id: 'f1',
      message: '<script>alert(5)</script>',
      email: null,
      name: 'Bo <b>',
      url: 'https://shop.example/cart',
      receivedAt: '2026-01-01T00:00:00Z',
    },
  ],
};
/** An issue of the same organization's other project, opened under p1's URL. */
const otherProjectIssue = { ...hostileIssue, id: 'i9', projectId: 'p2', title: 'Secret of project two' };

/** `IssueDetail` as the API answers it: `latestEvent` skipped and `event` included when one is picked. */
function issueDetailAnswer(variables: Record<string, unknown>): Api.IssueDetailQuery {
  const issues: Record<string, typeof hostileIssue> = { i2: hostileIssue, i9: otherProjectIssue };
  const found = issues[String(variables.id)];
  // `Issue.event(id)`: null for an event of another issue.
  const picked = eventDetails[String(variables.eventId)];
  const event = variables.picked ? { event: picked && picked.issueId === variables.id ? picked : null } : {};
  const projectAnswer =
    variables.projectId === 'p1'
      ? {
          id: 'p1',
          traceUrlTemplate: null,
          members: [
            { userId: 'u1', email: XSS_TITLE },
            { userId: 'u2', email: 'grace@example.com' },
          ],
        }
      : null;
  if (!found) return { issue: null, project: projectAnswer };
  const { latestEvent, ...rest } = found;
  return {
    issue: {
      ...rest,
      events: hostileEventsPage(variables.eventsAfter),
      ...(variables.picked ? event : { latestEvent }),
    },
    project: projectAnswer,
  };
}

const vitalStats = (metric: Api.VitalMetric, p75: number | null, good: number, poor: number, count = 40) => ({
  metric,
  count,
  p75,
  goodShare: count ? 0.5 : null,
  needsImprovementShare: count ? 0.3 : null,
  poorShare: count ? 0.2 : null,
  thresholds: { good, poor },
});

/** Vitals for any filter but `environment: "empty"`, which has no page views (the empty state). */
function vitalsAnswer(variables: Record<string, unknown>): Api.ProjectVitalsQuery {
  const filter = variables.filter as { environment?: string | null; from: string; to: string };
  const empty = filter.environment === 'empty';
  const hour = (h: number) => new Date(Date.parse(filter.from) + h * 3_600_000).toISOString();
  return {
    vitals: {
      from: filter.from,
      to: filter.to,
      pageViews: empty ? 0 : 40,
      metrics: [
        vitalStats('LCP', empty ? null : 2100, 2500, 4000, empty ? 0 : 40),
        vitalStats('INP', empty ? null : 350, 200, 500, empty ? 0 : 12),
        vitalStats('CLS', empty ? null : 0.31, 0.1, 0.25, empty ? 0 : 40),
        vitalStats('FCP', empty ? null : 1200, 1800, 3000, empty ? 0 : 40),
        vitalStats('TTFB', empty ? null : 90, 800, 1800, empty ? 0 : 40),
      ],
    },
    vitalsByUrl: empty
      ? []
      : [
          {
            url: `https://shop.example/${XSS_TITLE}`,
            pageViews: 31,
            metrics: [
              { metric: 'LCP', p75: 4100 },
              { metric: 'INP', p75: null },
              { metric: 'CLS', p75: 0.05 },
              { metric: 'FCP', p75: 1000 },
              { metric: 'TTFB', p75: 80 },
            ],
          },
        ],
    vitalsTimeSeries: {
      interval: variables.interval as Api.VitalsInterval,
      buckets: [0, 1, 2].map((h) => ({
        start: hour(h),
        pageViews: h === 1 ? 0 : 20,
        lcp: h === 1 ? null : 2000 + h * 100,
        inp: null,
        cls: h === 1 ? null : 0.02,
        fcp: 1000,
        ttfb: 90,
      })),
    },
    releases: [{ version: XSS_TITLE, environment: 'production' }],
  };
}

function logsAnswer(variables: Record<string, unknown>): Api.ProjectLogsQuery {
  const filter = variables.filter as { text?: string | null };
  if (filter.text === 'nothing') return { logs: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } };
  return {
    logs: {
      pageInfo: { hasNextPage: true, endCursor: 'log-cursor-2' },
      nodes: [
        {
          id: 'l2',
          level: 'ERROR',
          message: `payment failed ${XSS_TITLE}`,
          context: { html: XSS_CULPRIT, attempt: 2 },
          tags: { region: 'eu' },
          environment: 'production',
          release: '1.0.0',
          timestamp: new Date(Date.now() - 60_000).toISOString(),
        },
        {
          id: 'l1',
          level: 'INFO',
          message: 'checkout opened',
          context: null,
          tags: {},
          environment: 'production',
          release: null,
          timestamp: new Date(Date.now() - 120_000).toISOString(),
        },
      ],
    },
  };
}

function feedbackAnswer(variables: Record<string, unknown>): Api.ProjectFeedbackQuery {
  if (variables.projectId !== project.id)
    return { feedback: { totalCount: 0, pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } };
  return {
    feedback: {
      totalCount: 26,
      pageInfo: { hasNextPage: !variables.after, endCursor: variables.after ? null : 'fb-cursor-2' },
      nodes: variables.after
        ? []
        : [
            {
              id: 'f1',
              message: `It broke ${XSS_CULPRIT}`,
              email: 'bo@example.com',
              name: 'Bo <b>Smith</b>',
              url: 'https://shop.example/checkout?step=2',
              eventId: 'e1',
              receivedAt: new Date(Date.now() - 3 * 60_000).toISOString(),
              issue: { id: 'i2', title: XSS_TITLE },
              event: { eventId: 'e1', release: '1.0.0', environment: 'production', url: 'javascript:alert(6)' },
            },
            {
              id: 'f0',
              message: 'No event attached',
              email: null,
              name: null,
              url: null,
              eventId: null,
              receivedAt: new Date(Date.now() - 10 * 60_000).toISOString(),
              issue: null,
              event: null,
            },
          ],
    },
  };
}

const FULL_WEBHOOK = 'https://hooks.example.com/tracker/T0123?sig=capability';
const FULL_SLACK = 'https://hooks.slack.com/services/T000/B000/slackCapabilityXYZ';
const FULL_SECRET = 'whsec_0123456789abcdefghijklmnopqra1b2';

/**
 * Alert rules as the API answers them: in full on p2 (whose organization the viewer administers),
 * masked on p1 (a member there), exactly as api/src/auth/secret-policy.ts masks them.
 */
function alertRulesAnswer(variables: Record<string, unknown>): Api.AlertRulesQuery {
  const masked = variables.projectId !== proProject.id;
  const rule = (
    id: string,
    type: Api.AlertChannelType,
    url: string | null,
    secret: string | null,
    email: string | null = null,
  ) => ({
    id,
    kind: 'NEW_ISSUE' as const,
    enabled: true,
    createdAt: '2026-01-01T00:00:00Z',
    secret,
    masked,
    channel: { type, url, email },
    deliveries: [] as Api.AlertRulesQuery['alertRules'][number]['deliveries'],
    failing: false,
    recentFailures: 0,
    threshold: null,
    windowMinutes: null,
    query: null,
    actionIntervalMinutes: 30,
    digestMinutes: null,
    mutedUntil: null,
    filter: { environments: null, minLevel: null, tags: null, release: null, assigned: null },
  });
  const failingHook = {
    ...rule('ar4', 'DISCORD', 'https://discord.com/api/webhooks/1/x', null),
    failing: true,
    recentFailures: 3,
    deliveries: [
      {
        id: 'd1',
        kind: 'NEW_ISSUE' as const,
        status: 'FAILED' as const,
        attempts: 8,
        lastError: 'Could not deliver to the Discord address: discord.com refused the connection.',
        lastStatus: null,
        response: null,
        test: false,
        createdAt: '2026-01-01T00:00:00Z',
        deliveredAt: null,
        nextAttemptAt: null,
      },
      {
        id: 'd2',
        kind: 'NEW_ISSUE' as const,
        status: 'DELIVERED' as const,
        attempts: 1,
        lastError: null,
        lastStatus: 204,
        response: '<img src=x onerror=alert(7)>',
        test: true,
        createdAt: '2026-01-01T00:00:00Z',
        deliveredAt: '2026-01-01T00:00:00Z',
        nextAttemptAt: null,
      },
    ],
  };
  const channel = (type: Api.AlertChannelType, name: string, available = true) => ({
    type,
    name,
    target: type === 'EMAIL' ? ('EMAIL' as const) : ('URL' as const),
    available,
    unavailableReason: available
      ? null
      : 'Email alerts are not available on this Tracker instance: it has no mail server configured.',
    help: `${name} help. It must be a public http(s) address: this instance refuses private, local and loopback addresses.`,
  });
  return {
    alertChannels: [
      channel('WEBHOOK', 'Webhook'),
      channel('SLACK', 'Slack'),
      channel('TEAMS', 'Microsoft Teams'),
      channel('DISCORD', 'Discord'),
      channel('EMAIL', 'Email', false),
    ],
    alertRules: masked
      ? [
          rule('ar1', 'WEBHOOK', 'https://hooks.example.com/…', 'whsec_…a1b2'),
          rule('ar2', 'SLACK', 'https://hooks.slack.com/…', null),
          rule('ar3', 'EMAIL', null, null, 'oncall@example.com'),
        ]
      : [rule('ar1', 'WEBHOOK', FULL_WEBHOOK, FULL_SECRET), rule('ar2', 'SLACK', FULL_SLACK, null), failingHook],
  };
}

/** The few operations the login and issues pages send, answered like the real API would. */
function answer(body: GraphQLBody, authorization: string | undefined): Answer {
  const token = authorization?.replace(/^Bearer /, '');
  if (body.operationName === 'SignIn') {
    if (body.variables.password !== PASSWORD) return fail('UNAUTHENTICATED', 'Invalid email or password.');
    return ok<Api.SignInMutation>({
      signIn: {
        session: { token: body.variables.email === 'stale@example.com' ? EXPIRED_TOKEN : VALID_TOKEN },
        twoFactorChallenge: null,
        twoFactorEnrolmentRequired: false,
      },
    });
  }
  if (body.operationName === 'Signup') {
    return fail('BAD_USER_INPUT', 'Password must be at least 8 characters.');
  }
  if (token !== VALID_TOKEN) return fail('UNAUTHENTICATED', 'Sign in first.');
  switch (body.operationName) {
    case 'Viewer':
      return ok<Api.ViewerQuery>({ viewer });
    case 'OrgProjects':
      return ok<Api.OrgProjectsQuery>({ viewer });
    case 'Project':
      return ok<Api.ProjectQuery>({ project: projects.find((p) => p.id === body.variables.id) ?? null });
    case 'ProjectIssues':
      if (String(body.variables.query ?? '').includes('lvl:')) {
        return fail('BAD_USER_INPUT', 'Search: "lvl:error" at character 1: "lvl" is not a search key <b>');
      }
      return ok<Api.ProjectIssuesQuery>({
        issues: {
          totalCount: 2,
          pageInfo: { hasNextPage: true, endCursor: 'cursor-2' },
          nodes: [
            issue('i1', 'TypeError: x is undefined', 'app/cart.ts in addItem'),
            issue('i2', XSS_TITLE, XSS_CULPRIT),
          ],
        },
        all: { totalCount: 2 },
        savedSearches: [{ id: 's1', name: 'Chrome <b>', query: 'browser.name:Chrome is:unresolved' }],
        allDiscarded: { totalCount: 0 },
      });
    case 'ProjectSetup': {
      const found = projects.find((p) => p.id === body.variables.projectId);
      return ok<Api.ProjectSetupQuery>({
        project: found ? { id: found.id, organizationId: found.organizationId } : null,
        viewer,
        plans,
        issues: { totalCount: found?.id === 'p2' ? 3 : 0 },
      });
    }
    case 'ProjectOrganization':
      return ok<Api.ProjectOrganizationQuery>({ project: body.variables.id === project.id ? project : null });
    case 'ProjectKeys':
      return ok<Api.ProjectKeysQuery>({
        projectKeys: [
          {
            id: 'k1',
            publicKey: 'et_abc',
            enabled: true,
            rateLimitPerSecond: null,
            createdAt: '2026-01-01T00:00:00Z',
            disabledAt: null,
          },
        ],
      });
    case 'UploadTokens':
    case 'Invitations':
      return fail('FORBIDDEN', 'Owners and admins only.');
    case 'Members':
      return ok<Api.MembersQuery>({
        members: [
          {
            userId: 'u1',
            email: XSS_TITLE,
            role: 'MEMBER',
            joinedAt: '2026-01-01T00:00:00Z',
            emailVerified: false,
            twoFactorEnabled: false,
          },
        ],
      });
    case 'ApiTokens':
      return ok<Api.ApiTokensQuery>({ apiTokens: [] });
    case 'Billing':
      return ok<Api.BillingQuery>({
        project: body.variables.projectId === project.id ? { organizationId: 'o1' } : null,
      });
    case 'BillingDetails':
      return ok<Api.BillingDetailsQuery>({
        organization: {
          id: 'o1',
          name: 'Acme',
          slug: 'acme',
          usage: {
            period: '2026-11',
            periodEnd: '2026-12-01T00:00:00.000Z',
            events: { used: 4321, limit: 5000, remaining: 679 },
            logs: { used: 60000, limit: 50000, remaining: 0 },
          },
        },
        billing: {
          configured: false,
          plan: 'free',
          availablePlans: [],
          status: null,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          pastDueSince: null,
          graceEndsAt: null,
          hasBillingAccount: false,
        },
        plans,
      });
    case 'IssueDetail':
      return ok(issueDetailAnswer(body.variables));
    case 'EventJson': {
      const e = eventDetails[String(body.variables.eventId)];
      const issueId = String(body.variables.issueId);
      const answer: Api.EventJsonQuery = {
        issue:
          issueId === 'i2'
            ? {
                id: 'i2',
                projectId: 'p1',
                event: e && e.issueId === 'i2' ? { json: { eventId: e.eventId, message: e.message } } : null,
              }
            : null,
      };
      return ok(answer);
    }
    case 'ProjectReleases':
      return releasesAnswer(body.variables);
    case 'ProjectReleaseHealth':
      return releaseHealthAnswer(body.variables);
    case 'ReleaseDetail':
      return releaseDetailAnswer(body.variables);
    case 'ProjectVitals':
      return ok(vitalsAnswer(body.variables));
    case 'ProjectLogs':
      return ok(logsAnswer(body.variables));
    case 'ProjectFeedback':
      return ok(feedbackAnswer(body.variables));
    case 'AlertRules':
      return ok(alertRulesAnswer(body.variables));
    case 'UpdateProjectKeyRateLimit': {
      const limit = body.variables.rateLimitPerSecond as number | null;
      if (limit !== null && limit > 1_000_000)
        return fail(
          'BAD_USER_INPUT',
          'rateLimitPerSecond: must be a whole number from 1 to 1,000,000, or null for no limit',
        );
      return ok<Api.UpdateProjectKeyRateLimitMutation>({
        updateProjectKey: { id: String(body.variables.keyId), rateLimitPerSecond: limit },
      });
    }
    case 'UpdateAlertRule':
      return ok<Api.UpdateAlertRuleMutation>({ updateAlertRule: { id: String(body.variables.id) } });
    case 'Account':
      return ok<Api.AccountQuery>({
        viewer: { id: 'u1', email: 'ada@example.com', emailVerified: true, pendingEmail: 'ada@new.example' },
        sessions: [
          { id: 's1', createdAt: '2026-01-02T00:00:00Z', expiresAt: '2026-02-01T00:00:00Z', current: true },
          { id: 's2', createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-31T00:00:00Z', current: false },
        ],
      });
    case 'ChangePassword':
      if (body.variables.currentPassword !== PASSWORD) return fail('BAD_USER_INPUT', 'currentPassword: wrong password');
      // The same token, so the rest of the suite stays signed in: the cookie is what is checked.
      return ok<Api.ChangePasswordMutation>({ changePassword: { token: VALID_TOKEN } });
    case 'OrganizationsOfViewer':
      return ok<Api.OrganizationsOfViewerQuery>({
        viewer: {
          id: 'u1',
          twoFactorEnabled: false,
          organizations: viewer.organizations.map((o) => ({ id: o.id, slug: o.slug })),
        },
      });
    case 'OrganizationSettings':
      return ok<Api.OrganizationSettingsQuery>({
        organization: {
          id: 'o1',
          name: 'Acme <b>',
          slug: 'acme',
          plan: 'free',
          requireTwoFactor: false,
          projects: [{ id: 'p1', name: project.name }],
          usage: {
            period: '2026-11',
            periodEnd: '2026-12-01T00:00:00.000Z',
            events: { used: 4321, limit: 5000, remaining: 679 },
            logs: { used: 10, limit: 50000, remaining: 49990 },
          },
        },
      });
    case 'ProjectPrivacy':
      return ok<Api.ProjectPrivacyQuery>({
        project: { id: 'p1', privacy: { scrubDefaults: true, sensitiveFields: ['ssn'], scrubIpAddresses: false } },
        previewScrubbing: { sample: '{"message": "<b>card</b>"}', event: '{"message": "[Filtered] <img src=x>"}' },
      });
    case 'PreviewScrubbing':
      if (String(body.variables.sample ?? '').startsWith('{not'))
        return fail('BAD_USER_INPUT', 'sample: not valid JSON');
      return ok<Api.PreviewScrubbingQuery>({
        previewScrubbing: {
          sample: String(body.variables.sample ?? '{}'),
          event: JSON.stringify({ draft: body.variables.draft }),
        },
      });
    case 'MergeIssues':
      if (body.variables.sourceId === 'i-other-tenant') return fail('NOT_FOUND', 'Issue not found');
      return ok<Api.MergeIssuesMutation>({
        mergeIssues: { id: String(body.variables.targetId), title: 'TypeError: x is undefined' },
      });
    case 'TestAlertRule':
      if (body.variables.id === 'ar2')
        return fail('RATE_LIMITED', 'At most 5 test notifications a minute per rule; try again in a minute.');
      return ok<Api.TestAlertRuleMutation>({
        testAlertRule: {
          id: 'd9',
          kind: 'NEW_ISSUE',
          status: 'FAILED',
          attempts: 1,
          lastError:
            'The webhook receiver answered HTTP 404 Not Found: <b>no hook</b>. Tracker will not retry: check the address and the receiver.',
          lastStatus: 404,
          response: '<b>no hook</b>',
          test: true,
          createdAt: '2026-01-01T00:00:00Z',
          deliveredAt: null,
          nextAttemptAt: null,
        },
      });
    default:
      return fail('BAD_USER_INPUT', `unexpected operation ${body.operationName}`);
  }
}

let api: Server;
let apiUrl: string;
let handle: RequestHandler;
const received: { body: GraphQLBody; authorization?: string }[] = [];

before(async () => {
  api = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as GraphQLBody;
    received.push({ body, authorization: req.headers.authorization });
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(answer(body, req.headers.authorization)));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/graphql`;

  // A variable path keeps tsc from looking for types of the generated JS.
  const buildPath = new URL('../build/server/index.js', import.meta.url).href;
  const build = (await import(buildPath)) as ServerBuild;
  // Remix's handler takes the load context per request, exactly as @tracker/server passes it.
  const handler = createRequestHandler(build, 'production');
  handle = (request) => handler(request, { apiUrl, sdk: request.headers.has('x-test-no-sdk') ? undefined : SDK });
});

after(() => new Promise<void>((resolve) => api.close(() => resolve())));

const origin = 'http://localhost';

/** What @tracker/server passes as `sdk` in the load context (server/src/sdk-dist/sdk-assets.ts). */
const SDK = {
  publicUrl: 'https://tracker.example.com',
  version: '0.5.0',
  scriptUrl: 'https://tracker.example.com/sdk/0.5.0/tracker.min.js',
  scriptIntegrity: 'sha384-AAAAscript+/hash',
  moduleUrl: 'https://tracker.example.com/sdk/0.5.0/tracker.mjs',
  moduleIntegrity: 'sha384-BBBBmodule+/hash',
  tarballs: {
    browser: 'https://tracker.example.com/sdk/0.5.0/tracker-browser.tgz',
    node: 'https://tracker.example.com/sdk/0.5.0/tracker-node.tgz',
    next: 'https://tracker.example.com/sdk/0.5.0/tracker-next.tgz',
  },
};

function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return handle(new Request(origin + path, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } }));
}

function postForm(path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.Cookie = cookie;
  return handle(new Request(origin + path, { method: 'POST', headers, body: new URLSearchParams(fields) }));
}

/** The `name=value` part of a Set-Cookie header, ready to send back. */
function cookieFrom(response: Response): string {
  const setCookie = response.headers.get('Set-Cookie');
  assert.ok(setCookie, 'expected a Set-Cookie header');
  return setCookie.split(';')[0];
}

async function signIn(email = 'ada@example.com'): Promise<string> {
  return cookieFrom(await postForm('/login', { email, password: PASSWORD, redirectTo: '/' }));
}

/** The markup of the card a heading labels (up to the next card), for assertions about one section. */
function section(html: string, headingId: string): string {
  const start = html.lastIndexOf('<section', html.indexOf(`id="${headingId}"`));
  assert.ok(start >= 0, `a section labelled by #${headingId}`);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

/**
 * Rendered markup (not the loader data Remix streams into a script for hydration) holds no
 * element or attribute an event wrote: no img, no script running alert, no event handler, no
 * javascript: link, no raw bidi override, and only our own SVG charts.
 */
function assertInertMarkup(html: string) {
  const markup = html.split('<script')[0];
  assert.doesNotMatch(html, /<img|<script>alert/i);
  assert.doesNotMatch(markup, /<[a-z][^>]*\son[a-z]+=/i, 'no event handler attribute on any element');
  assert.doesNotMatch(markup, /href="\s*javascript:/i);
  assert.ok(!markup.includes('\u202E'), 'no raw bidi override in the rendered text');
  for (const svg of markup.matchAll(/<svg\b[^>]*>/g))
    assert.match(svg[0], /class="(events-chart|tag-bar|sparkline)"/, `only our charts are SVG: ${svg[0]}`);
}

describe('sign in', () => {
  test('renders a labelled login form', async () => {
    const response = await get('/login');
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /<form[^>]*method="post"/);
    assert.match(html, /<label for="field-email">Email<\/label>/);
    assert.match(html, /<input[^>]*id="field-email"[^>]*name="email"/);
    assert.match(html, /<input[^>]*name="password"[^>]*type="password"/);
  });

  test('stores the API token in an httpOnly, SameSite=Lax cookie and redirects', async () => {
    const response = await postForm('/login', {
      email: 'ada@example.com',
      password: PASSWORD,
      redirectTo: '/projects/p1/issues',
    });
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), '/projects/p1/issues');
    const setCookie = response.headers.get('Set-Cookie') ?? '';
    assert.match(setCookie, /^tracker_session=/);
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Lax/i);
    assert.match(setCookie, /Path=\//);
    assert.doesNotMatch(setCookie, /Secure/i, 'no Secure flag over plain http');
    const login = received.findLast((r) => r.body.operationName === 'SignIn');
    assert.deepEqual(login?.body.variables, { email: 'ada@example.com', password: PASSWORD });
  });

  test('refuses to redirect off-site after login', async () => {
    const response = await postForm('/login', {
      email: 'ada@example.com',
      password: PASSWORD,
      redirectTo: '//evil.example',
    });
    assert.equal(response.headers.get('Location'), '/');
  });

  test('shows the API message next to the form when credentials are wrong', async () => {
    const response = await postForm('/login', { email: 'ada@example.com', password: 'nope' });
    assert.equal(response.status, 400);
    const html = await response.text();
    assert.match(html, /role="alert"[^>]*>Invalid email or password\./);
    assert.equal(response.headers.get('Set-Cookie'), null);
  });

  test('shows the API message for a rejected signup', async () => {
    const response = await postForm('/signup', { email: 'bo@example.com', password: 'short', organizationName: 'Bo' });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Password must be at least 8 characters\./);
  });
});

describe('issues page', () => {
  /** The bulk form as the browser posts it: one `ids` field per checked box, in list order. */
  function postBulk(intent: string, ids: string[], cookie: string) {
    const body = new URLSearchParams([['intent', intent], ...ids.map((id) => ['ids', id])]);
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie };
    return handle(new Request(`${origin}/projects/p1/issues?index`, { method: 'POST', headers, body }));
  }

  test('Merge selected merges every other checked issue into the first, one mergeIssues each', async () => {
    const cookie = await signIn();
    const page = await (await get('/projects/p1/issues', cookie)).text();
    assert.match(page, /<button[^>]*name="intent"[^>]*value="merge"[^>]*>Merge selected<\/button>/);

    const before = received.length;
    const response = await postBulk('merge', ['i1', 'i2', 'i3'], cookie);
    assert.equal(response.status, 200);
    const merges = received.slice(before).filter((r) => r.body.operationName === 'MergeIssues');
    assert.deepEqual(
      merges.map((r) => r.body.variables),
      [
        { sourceId: 'i2', targetId: 'i1' },
        { sourceId: 'i3', targetId: 'i1' },
      ],
    );
    assert.match(await response.text(), /Merged 2 issues into “TypeError: x is undefined”/);
  });

  test('Merge selected with one issue checked asks for two, and a refused merge says how far it got', async () => {
    const cookie = await signIn();
    const before = received.length;
    const one = await postBulk('merge', ['i1'], cookie);
    assert.equal(one.status, 400);
    assert.match(await one.text(), /Select two or more issues to merge\./);
    assert.equal(received.slice(before).filter((r) => r.body.operationName === 'MergeIssues').length, 0);

    const refused = await postBulk('merge', ['i1', 'i2', 'i-other-tenant'], cookie);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /Merged 1 of 2 into the first selected issue: Issue not found/);
  });

  test('renders issue titles from the API, escaping event-supplied text', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /TypeError: x is undefined/);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the hostile title is shown as text');
    assert.doesNotMatch(html, /<img/i, 'no <img> tag anywhere, including the inline data Remix streams');
    assert.doesNotMatch(html, /<script>alert\(2\)/i, 'the culprit cannot break out of a script element');
    assert.match(html, /<time[^>]*dateTime="\d{4}-\d\d-\d\dT[^"]+"[^>]*>5 minutes ago<\/time>/i);
    assert.match(html, /1,234/);
    assert.match(html, /href="[^"]*after=cursor-2[^"]*"[^>]*>Load more</);
    assert.match(html, /Checkout &lt;web&gt;/, 'the project switcher escapes project names too');

    const calls = received.filter((r) => r.body.operationName === 'ProjectIssues');
    const last = calls[calls.length - 1];
    assert.equal(last.authorization, `Bearer ${VALID_TOKEN}`);
    assert.deepEqual(last.body.variables, {
      projectId: 'p1',
      status: 'OPEN',
      first: 25,
      after: null,
      search: null,
      query: null,
      environment: null,
      release: null,
      sort: 'LAST_SEEN',
      assigned: null,
    });
  });

  test('passes the status tab and cursor to the API', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues?status=resolved&after=cursor-2', cookie);
    assert.equal(response.status, 200);
    const last = received.findLast((r) => r.body.operationName === 'ProjectIssues');
    assert.deepEqual(last?.body.variables, {
      projectId: 'p1',
      status: 'RESOLVED',
      first: 25,
      after: 'cursor-2',
      search: null,
      query: null,
      environment: null,
      release: null,
      sort: 'LAST_SEEN',
      assigned: null,
    });
    assert.match(await response.text(), /<a[^>]*aria-current="page"[^>]*>Resolved<\/a>/);
  });

  test('passes search, environment, release and sort to the API and keeps them across tabs and pages', async () => {
    const cookie = await signIn();
    const response = await get(
      '/projects/p1/issues?status=open&q=%20cart%20&environment=staging&release=1.2.3&sort=users&assigned=me&after=cursor-2',
      cookie,
    );
    assert.equal(response.status, 200);
    const last = received.findLast((r) => r.body.operationName === 'ProjectIssues');
    assert.deepEqual(last?.body.variables, {
      projectId: 'p1',
      status: 'OPEN',
      first: 25,
      after: 'cursor-2',
      search: 'cart',
      query: null,
      environment: 'staging',
      release: '1.2.3',
      sort: 'USERS',
      assigned: 'ME',
    });
    const html = await response.text();
    const kept = 'q=cart&amp;environment=staging&amp;release=1.2.3&amp;sort=users&amp;assigned=me';
    assert.match(html, new RegExp(`href="[^"]*\\?status=resolved&amp;${kept}"`), 'the Resolved tab keeps the filters');
    assert.match(html, new RegExp(`href="[^"]*\\?status=open&amp;${kept}&amp;after=cursor-2"[^>]*>Load more`));
    assert.match(html, /<input[^>]*name="q"[^>]*value="cart"/);
    assert.match(html, /<option value="users" selected="">Users affected<\/option>/);
    assert.match(html, /<option value="me" selected="">Assigned to me<\/option>/);
    assert.match(
      html,
      /<span class="visually-hidden">Assigned to <\/span>ada@example\.com<\/span>/,
      'the assignee badge',
    );
    // An unknown sort is the default one; hostile text in a filter is only ever an attribute value.
    await get('/projects/p1/issues?sort=drop%20table&q=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', cookie).then(
      async (r) => assert.doesNotMatch(await r.text(), /<script>alert\(1\)/),
    );
    assert.equal(received.findLast((r) => r.body.operationName === 'ProjectIssues')?.body.variables.sort, 'LAST_SEEN');
  });

  test('passes the search language as query, keeps it in the URL and shows saved searches as tabs', async () => {
    const cookie = await signIn();
    const response = await get(
      '/projects/p1/issues?status=open&query=%20browser.name%3AChrome%20level%3Aerror%20',
      cookie,
    );
    assert.equal(response.status, 200);
    const last = received.findLast((r) => r.body.operationName === 'ProjectIssues');
    assert.equal(last?.body.variables.query, 'browser.name:Chrome level:error');
    assert.equal(last?.body.variables.status, 'OPEN');
    const html = await response.text();
    assert.match(html, /<input[^>]*name="query"[^>]*value="browser.name:Chrome level:error"/);
    assert.match(
      html,
      /href="[^"]*\?status=resolved&amp;query=browser.name%3AChrome\+level%3Aerror"/,
      'tabs keep the query',
    );
    assert.match(html, /<nav aria-label="Saved searches"/);
    assert.match(html, />Chrome &lt;b&gt;<\/a>/, 'a saved search name is text');
    assert.match(html, /href="[^"]*query=browser.name%3AChrome\+is%3Aunresolved"/);
    assert.match(html, /Save this search/);
    // A query that names is: chooses the status itself.
    await get('/projects/p1/issues?status=open&query=is%3Aresolved', cookie);
    assert.equal(received.findLast((r) => r.body.operationName === 'ProjectIssues')?.body.variables.status, null);
  });

  test("shows the API's reason for a search it cannot read next to the box, not an error page", async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues?query=lvl%3Aerror', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(
      html,
      /<p id="query-error"[^>]*role="alert"[^>]*>&quot;lvl:error&quot; at character 1: &quot;lvl&quot; is not a search key &lt;b&gt;<\/p>/,
    );
    assert.match(html, /aria-invalid="true"/);
    assert.match(html, /Fix the search above/);
    assert.doesNotMatch(html, /Save this search/);
    // The page was read again without the query, so tabs and filters still work.
    assert.equal(received.findLast((r) => r.body.operationName === 'ProjectIssues')?.body.variables.query, null);
  });

  test('draws a 24-hour sparkline per issue from its hourly series', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues', cookie)).text();
    assert.match(html, /<th scope="col">Last 24 hours<\/th>/);
    assert.match(
      html,
      /<svg class="sparkline"[^>]*aria-label="6 events in the last 3 hours"[^>]*><polyline points="0\.0,19\.0 48\.0,10\.0 96\.0,1\.0"/,
    );
  });

  test('redirects a signed-out visitor to /login', async () => {
    const before = received.length;
    const response = await get('/projects/p1/issues');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), '/login?redirectTo=%2Fprojects%2Fp1%2Fissues');
    assert.equal(received.length, before, 'no API call without a session');
  });

  test('redirects to /login and drops the cookie when the API rejects the token', async () => {
    const cookie = await signIn('stale@example.com');
    const response = await get('/projects/p1/issues', cookie);
    assert.equal(response.status, 302);
    assert.match(response.headers.get('Location') ?? '', /^\/login/);
    assert.match(response.headers.get('Set-Cookie') ?? '', /tracker_session=;.*Expires=Thu, 01 Jan 1970/i);
  });

  test("an organization's billing link (usage-warning emails) opens billing under one of its projects", async () => {
    const cookie = await signIn();
    const response = await get('/orgs/acme/billing', cookie);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), '/projects/p1/billing');
    assert.equal((await get('/orgs/someone-else/billing', cookie)).status, 404);
    const signedOut = await get('/orgs/acme/billing');
    assert.equal(signedOut.status, 302);
    assert.equal(signedOut.headers.get('Location'), '/login?redirectTo=%2Forgs%2Facme%2Fbilling');
  });

  test('answers 404 for a project that is missing or not yours', async () => {
    const cookie = await signIn();
    const response = await get('/projects/nope/issues', cookie);
    assert.equal(response.status, 404);
    assert.match(await response.text(), /This project does not exist or is not yours\./);
  });
});

describe('security headers', () => {
  test('every page carries a nonce-based CSP without unsafe-inline, and every inline script has the nonce', async () => {
    for (const path of [
      '/login',
      '/projects/p1/issues',
      '/projects/p1/issues/i2?event=102',
      '/projects/p1/performance',
      '/projects/p1/logs?live=1',
    ]) {
      const response = await get(path, path === '/login' ? undefined : await signIn());
      assert.equal(response.status, 200, path);
      const csp = response.headers.get('Content-Security-Policy') ?? '';
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      assert.ok(nonce, `a script nonce in ${csp}`);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /object-src 'none'/);
      assert.match(csp, /base-uri 'none'/);
      assert.equal(response.headers.get('X-Content-Type-Options'), 'nosniff');
      assert.equal(response.headers.get('Referrer-Policy'), 'strict-origin-when-cross-origin');
      assert.equal(response.headers.get('X-Frame-Options'), 'DENY');
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.ok(scripts.length > 0);
      for (const attrs of scripts) {
        if (/\bsrc=/.test(attrs)) continue;
        assert.ok(attrs.includes(`nonce="${nonce}"`), `inline script without the nonce: <script${attrs}>`);
      }
      assert.doesNotMatch(html, /\sstyle="/, 'no inline style attributes (style-src has no unsafe-inline)');
    }
  });

  test('a fresh nonce per response', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await get('/login');
      await response.text();
      nonces.add(/'nonce-([^']+)'/.exec(response.headers.get('Content-Security-Policy') ?? '')?.[1] ?? '');
    }
    assert.equal(nonces.size, 3);
  });
});

describe('issue page', () => {
  test('renders event text, frames, feedback and release names as inert text', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues/i2', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assertInertMarkup(html);
    assert.doesNotMatch(html, /href="javascript:/i, 'an event URL never becomes a javascript: link');
    assert.ok(html.includes('javascript:alert(3)'), 'the URL is still shown, as text');
    assert.ok(html.includes('v[U+202E]gnp.exe'), 'bidi overrides are shown, not applied');
    // The rendered markup (not the loader data Remix streams into a script for hydration).
    assert.ok(!html.split('<script')[0].includes('\u202E'), 'no raw override in the rendered text');
    assert.match(html, /Regression/);
    assert.match(html, /Show minified frames/);
    assert.match(html, /webpack:\/\/\/src\/cart\.ts:12:3/);
    // Its alerts can be muted from here, through the confirmation page the alert links open.
    assert.match(html, /<a class="muted"[^>]* href="\/projects\/p1\/alerts\/mute\?issue=i2">Mute its alerts<\/a>/);
    assert.doesNotMatch(html, /Alerts muted until/);
  });

  test('suspect commits: message, author, hash and the matching file of the first release, as text', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    assertInertMarkup(html);
    const section = html.split('id="suspect-commits-heading"')[1]?.split('</section>')[0] ?? '';
    assert.ok(section.includes('Cart: &lt;img src=x onerror=alert(1)&gt;'), section);
    assert.ok(!section.includes('more'), 'the first line of the message only');
    assert.ok(section.includes('62aaca3ed186'), 'the short hash');
    assert.ok(section.includes('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;'), 'the author as text');
    assert.ok(section.includes('src/cart.ts'));
    assert.ok(section.includes('1.0.0'));
  });

  test('the timeline: comments link http(s) URLs only, everything else is text; the picker lists members', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    const body = html.split('<script')[0];
    assertInertMarkup(html);
    assert.match(
      body,
      /<a class="break" href="https:\/\/example\.com\/a\?b=1" target="_blank" rel="noopener noreferrer nofollow ugc">https:\/\/example\.com\/a\?b=1<\/a>\./,
      "the URL is a link, without the sentence's full stop",
    );
    assert.doesNotMatch(body, /href="javascript:/i);
    assert.ok(body.includes('javascript:alert(1)'), 'a javascript: URL stays text');
    assert.ok(body.includes('invoice[U+202E]fdp.exe'), 'bidi overrides are shown, not applied');
    assert.match(body, /\(edited\)/);
    assert.match(body, /event in release &lt;svg onload=alert\(1\)&gt;, deployed 2026-01-02 12:03 UTC/);
    const at = (kind: string) => body.indexOf(`<span class="timeline-kind">${kind}</span>`);
    assert.ok(
      at('Comment') > 0 && at('Comment') < at('Regressed') && at('Regressed') < at('First seen'),
      'newest first',
    );
    assert.match(body, /<option value="u1" selected="">&lt;img src=x onerror=alert\(1\)&gt;<\/option>/);
    assert.match(body, /<option value="u2">grace@example\.com<\/option>/);
    assert.match(body, /value="edit-comment"/);
    assert.match(body, /value="delete-comment"/);
  });

  test('the minified toggle shows the frames as the engine printed them', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2?frames=minified', cookie)).text();
    assert.match(html, /https:\/\/cdn\.example\/app\.min\.js:1:999/);
    assert.match(html, /Show original source/);
  });

  test('a minified event without maps names the release, the files and the upload command, as text', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2?event=104', cookie)).text();
    const body = html.split('<script')[0];
    assertInertMarkup(html);
    assert.match(body, /aria-label="Missing source maps"/);
    assert.match(body, /no source maps were uploaded for release 2\.0\.0 &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(body, /<code>app\.min\.js<\/code>/);
    assert.match(body, /<code>&lt;svg onload=alert\(1\)&gt;\.js<\/code>/);
    assert.doesNotMatch(body, /<code>42<\/code>/, 'a file that is not a string is left out');
    assert.match(body, /TRACKER_RELEASE=&#x27;2\.0\.0 &lt;script&gt;/);
    assert.match(body, /npx tracker-upload-sourcemaps/);
    const latest = (await (await get('/projects/p1/issues/i2', cookie)).text()).split('<script')[0];
    assert.doesNotMatch(latest, /Missing source maps/, 'no note on an event without one');
  });

  test('answers 404 for an issue that is missing or not yours', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues/other', cookie);
    assert.equal(response.status, 404);
    assert.match(await response.text(), /This issue does not exist or is not yours\./);
  });

  test('answers the same 404 for an issue of another project of the organization, leaking nothing', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues/i9', cookie);
    assert.equal(response.status, 404);
    const html = await response.text();
    assert.match(html, /This issue does not exist or is not yours\./);
    assert.doesNotMatch(
      html,
      /Secret of project two|checkoutOlder|Chrome/,
      'no data of the issue in the page or its hydration data',
    );
  });

  test('asks for the whole page in one GraphQL request: issue, tags, 24-hour series, first events page, latest event', async () => {
    const cookie = await signIn();
    const before = received.length;
    await (await get('/projects/p1/issues/i2', cookie)).text();
    const calls = received.slice(before).map((r) => r.body.operationName);
    // The layouts above the page ask for the viewer and the project, in parallel with it.
    assert.deepEqual(calls.sort(), ['IssueDetail', 'Project', 'Viewer']);
    const call = received.findLast((r) => r.body.operationName === 'IssueDetail');
    assert.deepEqual(call?.body.variables, {
      id: 'i2',
      eventsFirst: 25,
      eventsAfter: null,
      range: 'LAST_24_HOURS',
      activityFirst: 100,
      projectId: 'p1',
      eventId: '',
      picked: false,
    });
    assert.match(call?.body.query ?? '', /latestEvent @skip\(if: \$picked\)/);
    assert.match(call?.body.query ?? '', /event\(id: \$eventId\) @include\(if: \$picked\)/);
  });

  test('tag breakdown: top values per key with counts, shares as text and bars, the rest as "Other values"', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    const tags = section(html, 'tags-heading');
    assert.match(
      tags,
      /<caption><span class="tag-key mono">browser<\/span> <span class="muted">10<!-- --> event<!-- -->s<\/span><\/caption>/,
    );
    assert.match(
      tags,
      /<th scope="row" class="tag-value mono">Chrome<\/th><td class="num tag-share">60%<svg class="tag-bar"[^>]*aria-hidden="true"[^>]*><rect class="tag-bar-fill" x="0" y="0" width="60\.0" height="4"><\/rect><\/svg><\/td><td class="num">6<\/td>/,
    );
    assert.ok(
      tags.includes('&lt;script&gt;alert(1)&lt;/script&gt;</th><td class="num tag-share">30%'),
      'a hostile value, as text',
    );
    assert.match(
      tags,
      /<th scope="row">Other values<\/th><td class="num tag-share">10%<svg[^]*?width="10\.0"[^]*?<td class="num">1<\/td>/,
    );
    assert.ok(tags.includes('<span class="tag-key mono">&lt;svg onload=alert(1)&gt;</span>'), 'a hostile key, as text');
    assert.ok(tags.includes('>javascript:alert(1)</th>'), 'a javascript: value is text, not a link');
    assert.ok(tags.includes('invoice[U+202E]fdp.exe'), 'a bidi override in a value is shown, not applied');
    assert.match(
      tags,
      /<th scope="col">Value<\/th><th scope="col" class="num">Share<\/th><th scope="col" class="num">Events<\/th>/,
    );
    assertInertMarkup(html);
  });

  test('events per hour: a 24-hour series drawn as SVG columns, summarised for screen readers', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    const chart = section(html, 'series-heading');
    // The stand-in's series is 0, 2, 4 events in hours 00:00, 01:00, 02:00 UTC.
    assert.match(
      chart,
      /<svg viewBox="0 0 360 100" class="events-chart" role="img" aria-label="6 events in the last 24 hours; the busiest hour, from 02:00 UTC, had 4">/,
    );
    assert.match(
      chart,
      /<g><title>1 Jan 2026, 00:00–01:00 UTC: 0 events<\/title><rect class="hour-hit"[^>]*><\/rect><\/g>/,
      'no bar for 0',
    );
    assert.match(
      chart,
      /<title>1 Jan 2026, 01:00–02:00 UTC: 2 events<\/title><rect class="hour-hit"[^>]*><\/rect><rect class="hour-bar" x="141\.0" y="44\.0" width="106\.0" height="36\.0"><\/rect>/,
    );
    assert.match(
      chart,
      /<rect class="hour-bar" x="249\.0" y="8\.0" width="106\.0" height="72\.0">/,
      'the busiest hour is full height',
    );
    assert.match(chart, />00:00<\/text>/);
    assert.match(chart, />02:00<!-- --> UTC<\/text>/);
  });

  test('events list: newest first with id, time, release, environment, user and message as text; Older pages on', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    const list = section(html, 'events-heading');
    assert.ok(list.indexOf('>e1<') < list.indexOf('>e2<'), 'in the order the API gives (newest first)');
    assert.match(
      list,
      /<th scope="col">Event<\/th><th scope="col">When<\/th><th scope="col">Release<\/th><th scope="col">Environment<\/th><th scope="col">User<\/th><th scope="col">Message<\/th>/,
    );
    assert.ok(list.includes('u-1 (ada@example.com)'), 'the user id with the email');
    assert.ok(list.includes('&lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(1)'), 'a hostile message, as text');
    assert.ok(list.includes('>&lt;svg onload=alert(1)&gt;</td>'), 'a hostile user id, as text');
    assert.ok(list.includes('>invoice[U+202E]fdp.exe</td>'), 'a hostile release, override visible');
    assert.match(list, /<time[^>]*dateTime="2026-01-01T00:00:00Z"/);
    // The latest event is the one shown when none is picked.
    assert.match(
      list,
      /<tr class="is-selected"><th scope="row"[^>]*><a class="mono event-link" aria-current="true"[^>]*href="\/projects\/p1\/issues\/i2\?event=103#event-detail">e1<\/a>/,
    );
    assert.match(
      list,
      /<a class="mono event-link"[^>]*href="\/projects\/p1\/issues\/i2\?event=102#event-detail">e2<\/a>/,
    );
    assert.match(list, /href="\/projects\/p1\/issues\/i2\?after=ev-cursor-2#events"[^>]*>Older</);
    assert.doesNotMatch(list, />Newest</);
    assertInertMarkup(html);
  });

  test('events list: the cursor goes to the API, the older page links back to the newest, and keeps the picked event', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2?event=102&after=ev-cursor-2', cookie)).text();
    const call = received.findLast((r) => r.body.operationName === 'IssueDetail');
    assert.deepEqual(call?.body.variables, {
      id: 'i2',
      eventsFirst: 25,
      eventsAfter: 'ev-cursor-2',
      range: 'LAST_24_HOURS',
      eventId: '102',
      picked: true,
      activityFirst: 100,
      projectId: 'p1',
    });
    const list = section(html, 'events-heading');
    assert.match(list, /the oldest one/);
    assert.doesNotMatch(list, />e1</, 'only the older page');
    assert.match(list, /href="\/projects\/p1\/issues\/i2\?event=102#events"[^>]*>Newest</);
    assert.doesNotMatch(list, />Older</, 'the last page');
    assert.match(
      list,
      /href="\/projects\/p1\/issues\/i2\?event=101&amp;after=ev-cursor-2#event-detail"/,
      'picking keeps the page',
    );
    assert.match(section(html, 'trace-heading'), /checkoutOlder/, 'the picked event stays shown while paging');
  });

  test("picking an event shows that event's message, meta and stack instead of the latest", async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues/i2?event=102', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const detail = section(html, 'trace-heading');
    assert.match(
      detail,
      /<h3 id="trace-heading">Stack trace(<!-- -->)? <span class="muted">\(event <span class="mono">e2<\/span>\)<\/span><\/h3>/,
    );
    assert.ok(
      detail.includes('&lt;script&gt;alert(1)&lt;/script&gt; &lt;svg onload=alert(1)&gt; invoice[U+202E]fdp.exe'),
    );
    assert.match(detail, /checkoutOlder/);
    assert.doesNotMatch(detail, /addItem/, "not the latest event's frames");
    assert.ok(detail.includes('<dt>User</dt><dd>&lt;svg onload=alert(1)&gt;</dd>'));
    assert.ok(detail.includes('javascript:alert(1)') && !/href="javascript:/i.test(detail), 'the URL stays text');
    assert.match(section(html, 'events-heading'), /aria-current="true"[^>]*href="[^"]*\?event=102#event-detail">e2</);
    assert.match(
      detail,
      /href="\/projects\/p1\/issues\/i2\?event=102&amp;frames=minified"[^>]*>Show minified frames</,
      'the toggle keeps the event',
    );
    assertInertMarkup(html);
  });

  test("the issue's feedback shows the writer's name and the page, as text", async () => {
    const cookie = await signIn();
    const feedback = section(await (await get('/projects/p1/issues/i2', cookie)).text(), 'feedback-heading');
    assert.ok(feedback.includes('&lt;script&gt;alert(5)&lt;/script&gt;'));
    assert.match(feedback, /Bo &lt;b&gt;(<!-- -->)? ·/);
    assert.match(feedback, / · (<!-- -->)?https:\/\/shop\.example\/cart/);
    assert.doesNotMatch(feedback, /<b>/);
  });

  test('an error logged with a message shows the log message above the exception; one without shows none', async () => {
    const cookie = await signIn();
    const logged = section(await (await get('/projects/p1/issues/i2?event=104', cookie)).text(), 'trace-heading');
    const at = logged.indexOf('<p class="event-log-message"><span class="event-log-label">Log message</span>');
    assert.ok(at > 0, 'the log message is shown');
    assert.ok(logged.includes('charging order &lt;script&gt;alert(1)&lt;/script&gt; failed'), 'as text');
    assert.ok(at < logged.indexOf('<p class="event-message">'), "above the exception's own message");
    const plain = section(await (await get('/projects/p1/issues/i2?event=103', cookie)).text(), 'trace-heading');
    assert.doesNotMatch(plain, /event-log-message/);
  });

  test('the event shows everything the SDK sent: level, handled, type, SDK, fingerprint, tags, every user key, the context as a tree', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/issues/i2', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const call = received.findLast((r) => r.body.operationName === 'IssueDetail');
    for (const field of ['type', 'level', 'handled', 'tags {', 'context', 'sdk {', 'fingerprint'])
      assert.ok(call?.body.query.includes(field), `asks for ${field}`);
    const detail = section(html, 'trace-heading');
    const meta = (name: string) => new RegExp(`<dt>${name}</dt><dd[^>]*>(.*?)</dd>`).exec(detail)?.[1];
    assert.match(meta('Level') ?? '', /class="level level-fatal">fatal</);
    assert.equal(meta('Handled'), 'no (uncaught)');
    assert.equal(meta('Type'), 'Error');
    assert.equal(meta('SDK'), 'tracker.browser 0.5.0');
    assert.equal(meta('Fingerprint'), '[&quot;checkout&quot;,&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;]');
    // Tags, the worker's derived ones among them; a hostile key and value stay text.
    assert.ok(detail.includes('<dt class="mono">browser</dt><dd class="mono">Chrome 131</dd>'));
    assert.ok(detail.includes('<dt class="mono">device</dt><dd class="mono">iPhone</dd>'));
    assert.ok(
      detail.includes('<dt class="mono">&lt;svg onload=alert(1)&gt;</dt><dd class="mono">invoice[U+202E]fdp.exe</dd>'),
    );
    // Every user key, nested ones in a tree.
    const user = /<ul class="json-tree" aria-label="User">(.*?)<\/ul><h4/s.exec(detail)?.[1] ?? '';
    for (const text of [
      'json-key">id</span>: <span class="json-string">&quot;u-1&quot;',
      'json-key">email</span>: <span class="json-string">&quot;ada@example.com&quot;',
      'json-key">username</span>',
      'json-key">ip_address</span>: <span class="json-string">&quot;203.0.113.9&quot;',
      'json-key">seats</span>: <span class="json-literal">3</span>',
      'json-key">&lt;script&gt;alert(1)&lt;/script&gt;</span>: <span class="json-string">&quot;&lt;svg onload=alert(1)&gt;&quot;',
    ])
      assert.ok(user.includes(text), text);
    // The context: first level open, deeper closed, scalars typed, strings JSON-quoted.
    const context = detail.slice(detail.indexOf('aria-label="Context"'));
    assert.match(
      context,
      /<details open=""><summary><span class="json-key">cart<\/span> <span class="muted">\{4 keys\}<\/span><\/summary>/,
    );
    assert.match(
      context,
      /<details><summary><span class="json-key">items<\/span> <span class="muted">\[1 item\]<\/span>/,
    );
    assert.match(context, /<details><summary><span class="json-index">0<\/span>/);
    assert.ok(context.includes('json-key">total</span>: <span class="json-literal">12.5</span>'));
    assert.ok(context.includes('json-key">paid</span>: <span class="json-literal">false</span>'));
    assert.ok(context.includes('json-key">coupon</span>: <span class="json-literal">null</span>'));
    assert.ok(context.includes('json-key">empty</span>: <span class="json-empty">{}</span>'));
    assert.ok(
      context.includes('&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;'),
      'a deep value is rendered, as text',
    );
    assert.ok(
      context.includes('json-string">&quot;javascript:alert(1)\\ninvoice[U+202E]fdp.exe&quot;'),
      'newlines shown escaped, bidi made visible',
    );
    assert.doesNotMatch(context, /href=/, 'nothing in the context becomes a link');
    assertInertMarkup(html);
  });

  test('the evidence of an error: breadcrumbs above the stack, causes, library frames folded, variables, request, component stack, navigation and raw JSON', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2', cookie)).text();
    const detail = section(html, 'trace-heading');
    // Navigation: oldest and older are links to ?event=, newer and latest are off on the latest event.
    assert.match(detail, /<nav class="event-nav" aria-label="Events of this issue">/);
    assert.match(detail, /href="\/projects\/p1\/issues\/i2\?event=101#event-detail"[^>]*>Oldest event</);
    assert.match(detail, /rel="prev"[^>]*href="\/projects\/p1\/issues\/i2\?event=102#event-detail"[^>]*>Older event</);
    assert.match(detail, /<span class="button button-small is-disabled" aria-disabled="true">Newer event<\/span>/);
    assert.match(detail, /href="\/projects\/p1\/issues\/i2\/events\/103\.json">Raw JSON</);
    assert.match(detail, /href="\/projects\/p1\/issues\/i2\/events\/103\.json\?download=1" download="">Download JSON</);
    // Breadcrumbs, oldest first, above the stack, with the time before the error and the level as a class.
    const crumbs = detail.indexOf('id="breadcrumbs-heading"');
    assert.ok(crumbs > 0 && crumbs < detail.indexOf('class="frames"'), 'breadcrumbs come before the stack');
    assert.match(
      detail,
      /<li class="crumb crumb-level-info"><time class="crumb-time mono" dateTime="2025-12-31T23:59:57.500Z"[^>]*>-2\.5 s<\/time>/,
    );
    assert.match(detail, /<li class="crumb crumb-level-error">[^]*?-1\.0 s[^]*?&lt;b&gt;http&lt;\/b&gt;/);
    assert.ok(
      detail.includes('note<!-- -->: <!-- -->&lt;script&gt;alert(7)&lt;/script&gt;'),
      'breadcrumb data as text',
    );
    // The thrown error's in-app frame is open with its source and its variables folded; the
    // library frame is folded into a "show" switch; the cause has its own section and stack.
    assert.match(
      detail,
      /<li class="frame frame-in-app"><details open=""><summary class="frame-head"><span class="frame-function">addItem/,
    );
    assert.match(detail, /<details class="frame-vars"><summary>Local variables \(<!-- -->1<!-- -->\)<\/summary>/);
    assert.ok(
      detail.includes(
        '<th scope="row" class="mono">cartId</th><td class="mono">&lt;img src=x onerror=alert(6)&gt;</td>',
      ),
    );
    assert.match(
      detail,
      /<li class="frame frame-library-run"><details><summary class="frame-head">Show <!-- -->1<!-- --> library frame<\/summary>/,
    );
    assert.match(
      detail,
      /<details class="exception-cause" open=""><summary><span class="muted">Caused by<\/span> <span class="mono exception-type">RangeError<\/span><span class="mono">: <!-- -->index &lt;out&gt; of range<\/span><\/summary><ol class="frames">[^]*?readIndex/,
    );
    assert.match(detail, /<span class="ctx-no" aria-hidden="true">12<\/span>throw new Error/);
    assert.ok(detail.includes('ctx-line ctx-current'), 'the error line is highlighted');
    // Request: method and URL as text (a javascript: URL is no link), headers, body as a tree.
    assert.match(detail, /<p class="mono request-line">POST <!-- -->javascript:alert\(8\)<\/p>/);
    assert.ok(detail.includes('q=&lt;svg onload=alert(9)&gt;'));
    assert.ok(detail.includes('<th scope="row" class="mono">Cookie</th><td class="mono">[Filtered]</td>'));
    assert.match(detail, /<ul class="json-tree" aria-label="Request body">/);
    assert.match(
      detail,
      /<pre class="component-stack mono" tabindex="0">    at CartItem\n    at &lt;script&gt;alert\(10\)&lt;\/script&gt;<\/pre>/i,
    );
    assert.doesNotMatch(detail, /href="javascript:/i);
    assertInertMarkup(html);
  });

  test("raw JSON of an event: the stored event as JSON, a download with ?download=1, a 404 for another issue's event", async () => {
    const cookie = await signIn();
    const view = await get('/projects/p1/issues/i2/events/103.json', cookie);
    assert.equal(view.status, 200);
    assert.match(view.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(view.headers.get('content-disposition'), null);
    assert.deepEqual(await view.json(), { eventId: 'e1', message: XSS_TITLE });
    const download = await get('/projects/p1/issues/i2/events/103.json?download=1', cookie);
    assert.equal(download.headers.get('content-disposition'), 'attachment; filename="event-103.json"');
    for (const path of [
      '/projects/p1/issues/i2/events/999.json',
      '/projects/p1/issues/i2/events/103',
      '/projects/p2/issues/i2/events/103.json',
    ]) {
      const r = await get(path, cookie);
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(await r.text(), /secret of another issue|e1/, path);
    }
  });

  test('an event without breadcrumbs, causes, request or component stack shows none of those sections', async () => {
    const cookie = await signIn();
    const detail = section(await (await get('/projects/p1/issues/i2?event=102', cookie)).text(), 'trace-heading');
    for (const id of ['breadcrumbs-heading', 'request-heading', 'component-stack-heading'])
      assert.ok(!detail.includes(`id="${id}"`), id);
    assert.ok(!detail.includes('Caused by'));
    assert.match(detail, /href="\/projects\/p1\/issues\/i2\?event=103#event-detail"[^>]*>Latest event</);
  });

  test('an event that sent no tags, user, context or SDK says so', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/issues/i2?event=102', cookie)).text();
    const detail = section(html, 'trace-heading');
    assert.match(detail, /<dt>Handled<\/dt><dd>yes<\/dd>/);
    assert.match(detail, /class="level level-warning">warning</);
    assert.match(detail, /No tags\./);
    assert.match(detail, /No context\./);
    assert.doesNotMatch(detail, /<dt>SDK<\/dt>|<dt>Fingerprint<\/dt>/);
    // This event's user is only an id: still shown, as text.
    assert.match(detail, /aria-label="User"/);
    assertInertMarkup(html);
  });

  test("an event of another issue (or none) is not shown under this issue's URL", async () => {
    const cookie = await signIn();
    for (const id of ['999', 'nope']) {
      const response = await get(`/projects/p1/issues/i2?event=${id}`, cookie);
      assert.equal(response.status, 200);
      const html = await response.text();
      assert.doesNotMatch(html, /secret of another issue|elsewhere/);
      const detail = section(html, 'trace-heading');
      assert.match(detail, /This event is not one of this issue(&#x27;|')s, or is no longer stored\./);
      assert.match(detail, /href="\/projects\/p1\/issues\/i2"[^>]*>Show the latest event</);
      assert.doesNotMatch(section(html, 'events-heading'), /aria-current/, 'nothing picked in the list');
    }
  });
});

describe('releases page', () => {
  /** The `<tr>` of the release whose version cell starts with `version`. */
  function rowOf(html: string, version: string): string {
    const row = html.split('<tr').find((r) => new RegExp(`release-version"[^>]*>${escapeRegExp(version)}<`).test(r));
    assert.ok(row, `a row for ${version}`);
    return row;
  }
  const text = (html: string) => html.replace(/<!-- -->/g, '');

  test('on Free: releases per environment, newest first, the upgrade path, and no health asked for', async () => {
    const cookie = await signIn();
    const before = received.length;
    const response = await get('/projects/p1/releases', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.indexOf('&lt;img src=x') < html.indexOf('1.0.0'), 'newest deploy first');
    assert.match(html, /Environment<\/span> <!-- -->staging|Environment<\/span> staging/);
    assert.doesNotMatch(html, /<img/i);
    // The plans that include release health come from the API's catalogue, with the org's own plan.
    assert.match(text(html), /Releases and release health are part of the Pro and Business plans; Acme is on Free\./);
    assert.match(html, /<a[^>]*href="\/projects\/p1\/billing"[^>]*>Upgrade in Billing<\/a>/);
    assert.doesNotMatch(html, /name="version"/, 'no Mark release form on a plan without release health');
    assert.doesNotMatch(html, /Crash-free users/, 'no health columns');

    const calls = received.slice(before).map((r) => r.body);
    const releases = calls.filter((b) => b.operationName === 'ProjectReleases');
    assert.equal(releases.length, 1);
    assert.deepEqual(releases[0].variables, { projectId: 'p1', first: 200 });
    assert.ok(
      calls.every((b) => !/\bhealth\b/.test(b.query)),
      `no request for health: ${calls.map((b) => b.operationName).join(', ')}`,
    );
  });

  test('each release row links to its page, the version encoded as one path segment', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/releases', cookie)).text();
    assert.match(rowOf(html, '1.0.0'), /href="\/projects\/p1\/releases\/1.0.0"/);
    assert.match(
      rowOf(html, '&lt;img src=x onerror=alert(1)&gt;'),
      new RegExp(`href="/projects/p1/releases/${escapeRegExp(encodeURIComponent(XSS_TITLE))}"`),
    );
  });

  test('the release page: deploys, issues (text only) and files; no health on Free; 404 for an unknown version', async () => {
    const cookie = await signIn();
    const before = received.length;
    const response = await get('/projects/p1/releases/1.0.0', cookie);
    assert.equal(response.status, 200);
    const html = text(await response.text());
    assertInertMarkup(html);
    assert.deepEqual(
      received
        .slice(before)
        .map((r) => r.body.operationName)
        .filter((n) => n?.startsWith('ReleaseDetail')),
      ['ReleaseDetail'],
      'no health asked for on Free',
    );
    assert.match(html, /Release<\/span> <span class="mono">1.0.0<\/span>/);
    assert.ok(html.indexOf('>production<') < html.indexOf('>staging<'), 'deploys as the API ordered them');
    assert.match(html, /href="\/projects\/p1\/issues\/i1"[^>]*>&lt;img src=x onerror=alert\(1\)&gt;</);
    assert.match(html, /The newest 1 of 30\./);
    assert.match(html, /main\.js\.map<\/th><td class="num">1\.5 KB</);
    assert.match(
      html,
      /Release health \(crash-free sessions and users, events per hour against the previous release\) is part of the/,
    );
    assert.match(html, /62aaca3ed186/);

    const missing = await get(`/projects/p1/releases/${encodeURIComponent('2.0/beta')}`, cookie);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /No release 2\.0\/beta in this project\./);
  });

  test("sentry-cli's finalize time and commits under the version, the commit text inert", async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/releases', cookie)).text();
    assertInertMarkup(html);
    const row = text(rowOf(html, '1.0.0'));
    assert.match(row, /finalized/);
    assert.match(row, /1 commit</);
    assert.ok(row.includes('62aaca3ed186</span> Cart: &lt;img src=x onerror=alert(1)&gt;'), row);
    assert.ok(!row.includes('second line'));
    assert.doesNotMatch(text(rowOf(html, '&lt;img src=x onerror=alert(1)&gt;')), /finalized|commit/);
  });

  test('on Pro: each release with its health against the previous deploy of its environment', async () => {
    const cookie = await signIn();
    const before = received.length;
    const response = await get('/projects/p2/releases', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const calls = received.slice(before).map((r) => r.body);
    assert.deepEqual(
      calls.filter((b) => b.operationName?.startsWith('ProjectRelease')).map((b) => [b.operationName, b.variables]),
      [
        ['ProjectReleases', { projectId: 'p2', first: 200 }],
        ['ProjectReleaseHealth', { projectId: 'p2', first: 200 }],
      ],
    );
    assert.match(html, /name="version"/, 'Mark release is offered');
    assert.doesNotMatch(html, /Upgrade in Billing/);
    for (const column of ['Issues introduced', 'Regressions', 'Crash-free users', 'Events / hour'])
      assert.match(html, new RegExp(`<th scope="col" class="num">${column}</th>`));

    // 1.5.0 against 1.4.0: the figure, the change (coloured by whether it is good news, and said
    // in words for screen readers) and the previous release's figure.
    const newest = text(rowOf(html, '1.5.0'));
    assert.match(newest, /<span class="tag tag-accent">latest<\/span>/);
    const cells = [...newest.matchAll(/<td class="num health-cell">(.*?)<\/td>/g)].map((m) =>
      m[1].replace(/<span class="visually-hidden">([^<]*)<\/span>/g, '$1').replace(/<[^>]+>/g, '|'),
    );
    assert.deepEqual(cells, [
      '|3||+2 vs 1.4.0 (worse)||was 1|',
      '|0||\u22122 vs 1.4.0 (better)||was 2|',
      '|95 %||of 40 users||\u22124 pts vs 1.4.0 (worse)||was 99 %||from error events|',
      '|11.2||+12 % vs 1.4.0 (worse)||was 10|',
    ]);
    assert.match(newest, /class="health-change change-worse">\+2 vs 1\.4\.0/);
    assert.match(newest, /class="health-change change-better">\u22122 vs 1\.4\.0/);

    // The first release of production has its figures and nothing to compare with.
    const first = text(rowOf(html, '1.4.0'));
    assert.match(first, /<span class="health-previous">first in production<\/span>/);
    assert.doesNotMatch(first, / vs |was |health-change/);
    assert.match(first, /<span class="health-value">75 %<\/span>/);
    // Its crash-free figures say they come from sessions, with the sessions' own share.
    assert.match(
      first,
      /<span class="health-previous">of 4 users · 80 % of 5 sessions crash-free<\/span><span class="health-basis">from sessions<\/span>/,
    );

    // Staging: a hostile previous version is text; a release whose events named no user says so.
    const staging = text(rowOf(html, '2.0.0'));
    assert.ok(staging.includes('\u22121 vs &lt;img src=x onerror=alert(1)&gt;'), staging);
    assert.match(staging, /<span class="health-value">—<\/span><span class="health-previous">no users named/);
    assert.match(staging, /\u221250 % vs &lt;img/);
    assert.match(text(rowOf(html, '&lt;img src=x onerror=alert(1)&gt;')), /first in staging/);
    assert.doesNotMatch(html, /<img/i);
    assert.doesNotMatch(html, /\sstyle="/);
  });
});

describe('the setup page', () => {
  /** Decoded text of the page's code blocks, as a user copies them. */
  const codeOf = (html: string) =>
    [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)]
      .map((m) =>
        m[1]
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#x27;/g, "'")
          .replace(/&amp;/g, '&'),
      )
      .join('\n');

  test('gives a script tag with the SRI hash and tarball installs from this instance, all versioned', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const code = codeOf(html);
    assert.ok(
      code.includes(
        '<script src="https://tracker.example.com/sdk/0.5.0/tracker.min.js"\n  integrity="sha384-AAAAscript+/hash"\n  crossorigin="anonymous"></script>',
      ),
      code,
    );
    assert.ok(code.includes("dsn: 'http://et_key@127.0.0.1:3000/ingest/error'"), 'the DSN in the snippet');
    assert.ok(code.includes('integrity="sha384-BBBBmodule+/hash" crossorigin="anonymous">'), 'the module preload');
    assert.ok(code.includes("import * as Tracker from 'https://tracker.example.com/sdk/0.5.0/tracker.mjs'"));
    for (const pkg of ['browser', 'node', 'next']) {
      assert.ok(code.includes(`npm install https://tracker.example.com/sdk/0.5.0/tracker-${pkg}.tgz`), pkg);
    }
    // Nothing that would fail: the packages are on no registry.
    assert.doesNotMatch(code, /npm install @tracker\//);
    assert.match(html, /Waiting for the first event/);
  });

  test('gives the Node SDK snippet for ES modules and for CommonJS (a default project, where import fails)', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1', cookie)).text();
    const code = codeOf(html);
    assert.match(html, /In Node.js, ES modules \(import\)/);
    assert.match(html, /In Node.js, CommonJS \(require\)/);
    assert.ok(code.includes("import * as Tracker from '@tracker/node';\n\nTracker.init({"), code);
    assert.ok(code.includes("const Tracker = require('@tracker/node');\n\nTracker.init({"), code);
  });

  test('on Free it says release registration needs Pro instead of giving a snippet that would be refused', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1', cookie)).text();
    assert.match(
      html.replace(/<!-- -->/g, ''),
      /Registering releases \(regressions by release, release health\) needs Pro\./,
    );
    assert.match(html, /href="\/projects\/p1\/billing"/);
    assert.doesNotMatch(html, /ingest\/release/);
  });

  test('on Pro it gives the release registration for this instance', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p2', cookie)).text();
    const code = codeOf(html);
    assert.ok(code.includes('curl -X POST https://tracker.example.com/ingest/release'), code);
    assert.doesNotMatch(html, /needs Pro/);
    assert.match(html.replace(/<!-- -->/g, ''), /This project has 3 issues\./);
  });

  test('an instance without SDK files says so rather than give install lines for its own SDKs', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1', cookie, { 'x-test-no-sdk': '1' });
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /started without its SDK files/);
    // Sentry's SDKs come from npm and stay on offer; ours come only from the instance
    assert.doesNotMatch(html, /npm install (?!@sentry\/)|<code>&lt;script/);
    assert.match(html, /npm install @sentry\/browser/);
    assert.match(html, /et_key/, 'the DSN is still there');
  });
});

describe('settings and billing', () => {
  test('a member sees why admin-only sections are hidden, and member emails as text', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/settings', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /Only owners and admins can see this\./);
    assert.doesNotMatch(html, /Create upload token/, 'no upload-token form without the right');
    assert.match(html, /et_abc/);
    assert.doesNotMatch(html, /<img/i);
    assert.doesNotMatch(html, /In Next\.js/, 'Settings shows the DSN, not the snippets');
    // Sentry's SDKs take the same DSN: their snippets are there, folded (docs/sentry-compatibility.md).
    assert.match(html, /<details class="sentry-sdks">/);
    assert.match(html, /import \* as Sentry from &#x27;@sentry\/browser&#x27;/);
    assert.match(html, /@sentry\/node/);
    assert.match(html, /sentry_sdk\.init\(\s*dsn=&quot;http:\/\/et_key@127\.0\.0\.1:3000\/ingest\/error&quot;/);
  });

  test("a key's rate limit is shown in a form; saving sends updateProjectKey; empty lifts it; bad input is said", async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/settings', cookie)).text();
    assert.match(html, />Rate limit \(per second\)</);
    assert.match(
      html,
      /<label for="rate-limit-k1"[^>]*>Rate limit of (<!-- -->)?et_abc(<!-- -->)?, items per second \(empty: no limit\)/,
    );
    assert.match(
      html,
      /<input id="rate-limit-k1" class="rate-limit-input" name="rateLimitPerSecond" type="number"[^>]*placeholder="no limit" value=""/,
    );
    assert.match(html, /<button type="submit" name="intent" value="setKeyRateLimit"[^>]*>Save limit</);

    const calls = () => received.filter((r) => r.body.operationName === 'UpdateProjectKeyRateLimit');
    const before = calls().length;
    const set = await postForm(
      '/projects/p1/settings',
      { intent: 'setKeyRateLimit', id: 'k1', rateLimitPerSecond: ' 25 ' },
      cookie,
    );
    assert.equal(set.status, 200);
    assert.match(await set.text(), /The key is limited to 25 items per second\./);
    assert.deepEqual(calls().at(-1)?.body.variables, { projectId: 'p1', keyId: 'k1', rateLimitPerSecond: 25 });

    const lifted = await postForm(
      '/projects/p1/settings',
      { intent: 'setKeyRateLimit', id: 'k1', rateLimitPerSecond: '' },
      cookie,
    );
    assert.match(await lifted.text(), /The key has no rate limit of its own now\./);
    assert.deepEqual(calls().at(-1)?.body.variables, { projectId: 'p1', keyId: 'k1', rateLimitPerSecond: null });

    const tooHigh = await postForm(
      '/projects/p1/settings',
      { intent: 'setKeyRateLimit', id: 'k1', rateLimitPerSecond: '2000000' },
      cookie,
    );
    assert.equal(tooHigh.status, 400);
    assert.match(await tooHigh.text(), /must be a whole number from 1 to 1,000,000, or null for no limit/);

    const notANumber = await postForm(
      '/projects/p1/settings',
      { intent: 'setKeyRateLimit', id: 'k1', rateLimitPerSecond: '2.5' },
      cookie,
    );
    assert.equal(notANumber.status, 400);
    assert.match(await notANumber.text(), /Rate limit: a whole number of items per second, or empty for no limit\./);
    assert.equal(calls().length, before + 3, 'the malformed value never reached the API');
  });

  test('privacy: every field of updateProjectPrivacy in a form, with the preview as text; Preview sends the draft', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/settings', cookie)).text();
    assert.match(html, /<input type="checkbox" name="scrubDefaults" checked=""/);
    assert.match(html, /<input type="checkbox" name="scrubIpAddresses"\/>/);
    assert.match(html, /<textarea id="privacy-fields" name="sensitiveFields"[^>]*>ssn<\/textarea>/);
    assert.match(html, /\[Filtered\] &lt;img src=x&gt;/, 'the preview is text');
    assert.doesNotMatch(html, /<img/i);
    assert.match(html, /Members and invitations are in/);

    const r = await postForm(
      '/projects/p1/settings',
      { intent: 'previewPrivacy', scrubIpAddresses: 'on', sensitiveFields: ' ssn \n\nbirth, pin ', sample: '{}' },
      cookie,
    );
    assert.equal(r.status, 200);
    const call = received.filter((c) => c.body.operationName === 'PreviewScrubbing').at(-1);
    assert.deepEqual(call?.body.variables, {
      projectId: 'p1',
      sample: '{}',
      draft: { scrubDefaults: false, scrubIpAddresses: true, sensitiveFields: ['ssn', 'birth', 'pin'] },
    });
    assert.equal(received.filter((c) => c.body.operationName === 'UpdateProjectPrivacy').length, 0, 'not saved');
    const bad = await postForm('/projects/p1/settings', { intent: 'previewPrivacy', sample: '{not json' }, cookie);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /sample: not valid JSON/);
  });

  test('the account page: email with its pending change, sessions, password; a password change sets the new cookie', async () => {
    const cookie = await signIn();
    const response = await get('/account', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /ada@new\.example/);
    assert.match(html, /This browser/);
    assert.match(html, /<input type="hidden" name="id" value="s2"\/>/);
    assert.match(html, /Sign out everywhere else/);
    assert.match(html, /name="newPassword"/);
    assert.match(html, /Your API tokens/);

    const calls = () => received.filter((r) => r.body.operationName === 'ChangePassword').length;
    const before = calls();
    const differ = await postForm(
      '/account',
      { intent: 'changePassword', currentPassword: PASSWORD, newPassword: 'new password 1', confirmPassword: 'other' },
      cookie,
    );
    assert.equal(differ.status, 400);
    assert.match(await differ.text(), /The new password and its confirmation differ\./);
    assert.equal(calls(), before, 'not sent to the API');
    const wrong = await postForm(
      '/account',
      {
        intent: 'changePassword',
        currentPassword: 'nope',
        newPassword: 'new password 1',
        confirmPassword: 'new password 1',
      },
      cookie,
    );
    assert.equal(wrong.status, 400);
    assert.equal(wrong.headers.get('Set-Cookie'), null);
    const changed = await postForm(
      '/account',
      {
        intent: 'changePassword',
        currentPassword: PASSWORD,
        newPassword: 'new password 1',
        confirmPassword: 'new password 1',
      },
      cookie,
    );
    assert.equal(changed.status, 200);
    assert.match(changed.headers.get('Set-Cookie') ?? '', /^tracker_session=.*HttpOnly/i);
    assert.match(await changed.text(), /Password changed\. Every other session is signed out\./);
  });

  test('the organization settings page: name, members, usage; another slug is a 404', async () => {
    const cookie = await signIn();
    const response = await get('/orgs/acme/settings', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /Acme &lt;b&gt;(<!-- -->)?: organization settings/);
    assert.match(html, /<input id="org-name"[^>]*value="Acme &lt;b&gt;"/);
    assert.match(html, /Members and invitations/);
    assert.match(html, /4,321(<!-- -->)? of (<!-- -->)?5,000(<!-- -->)? used/);
    assert.doesNotMatch(html, /<img/i, 'member emails as text');
    assert.equal((await get('/orgs/initech/settings', cookie)).status, 404);
  });

  test('the setup page shows our snippets and, open beside them, the Sentry SDKs with the same DSN', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /@tracker\/browser/);
    assert.match(html, /<details class="sentry-sdks" open="">/);
    assert.match(html, /pip install sentry-sdk/);
    assert.match(html, /@sentry\/node/);
  });

  test('billing says when Stripe is not configured and offers no checkout', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/billing', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /Payments are not configured on this installation/);
    // Not a dead end: the operator's command for each other plan, with the organization's slug.
    assert.match(html, /npm run tracker -- org:set-plan acme pro/);
    assert.match(html, /npm run tracker -- org:set-plan acme business/);
    assert.doesNotMatch(html, /Upgrade to/);
  });

  test("billing compares the API's plan catalogue, marking the current plan", async () => {
    const cookie = await signIn();
    const html = (await (await get('/projects/p1/billing', cookie)).text()).replace(/<!-- -->/g, '');
    assert.match(html, /Plan: Free/);
    const cards = [...html.matchAll(/<div class="plan-card"[^>]*>(.*?)<\/div>/g)].map((m) =>
      m[1].replace(/<[^>]+>/g, '|').replace(/\|+/g, '|'),
    );
    assert.deepEqual(cards, [
      '|Free |current|5,000 events a month|40,000 log entries a month|30 days retention|No release health|',
      '|Pro |100,000 events a month|900,000 log entries a month|90 days retention|Releases and release health|',
      '|Business |1,000,000 events a month|9,000,000 log entries a month|365 days retention|Releases and release health|',
    ]);
    assert.match(html, /<div class="plan-card" aria-current="true">/);
  });

  test('billing shows events and logs used against the limit, with meters and the reset date', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/billing', cookie)).text();
    assert.match(html, /Usage this month/);
    assert.match(html, /the counts reset (<!-- -->)?1 Dec 2026, 00:00 UTC/);
    assert.match(html, /<meter id="usage-events"[^>]*min="0" max="5000" value="4321" low="4000"/);
    assert.match(html, /4,321(<!-- -->)? of (<!-- -->)?5,000(<!-- -->)? used · (<!-- -->)?679(<!-- -->)? remaining/);
    assert.match(html, /<meter id="usage-logs"[^>]*max="50000" value="50000"/, 'an overrun fills the bar, no more');
    assert.match(html, /60,000(<!-- -->)? of (<!-- -->)?50,000(<!-- -->)? used · (<!-- -->)?0(<!-- -->)? remaining/);
    assert.match(html, /new ones are refused until the reset/);
    const call = received.findLast((r) => r.body.operationName === 'BillingDetails');
    assert.deepEqual(call?.body.variables, { organizationId: 'o1' });
  });

  test('billing of a project that is not yours is a 404', async () => {
    const cookie = await signIn();
    const response = await get('/projects/nope/billing', cookie);
    assert.equal(response.status, 404);
  });
});

describe('alerts page', () => {
  test('a member sees the webhook and Slack URLs and the signing secret masked, says so, and offers no edit', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/alerts', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.includes('https://hooks.example.com/…'));
    assert.ok(html.includes('https://hooks.slack.com/…'));
    assert.match(html, /<code[^>]*>whsec_…a1b2<\/code>/);
    assert.match(html, /owners and admins see the whole secret/);
    assert.match(html, /Only owners and admins see the full URL and signing secret and change this rule\./);
    assert.match(html, /Only owners and admins see the full URL and change this rule\./);
    assert.match(html, /Only owners and admins change this rule\./, 'the email rule');
    assert.doesNotMatch(html, />(Disable|Delete)</, 'no buttons the API would refuse');
  });

  test('an admin sees the full URLs and secret and can disable a rule; the edit sends no URL or secret', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p2/alerts', cookie)).text();
    assert.ok(html.includes(FULL_WEBHOOK));
    assert.ok(html.includes(FULL_SLACK));
    assert.match(html, new RegExp(`<code[^>]*>${FULL_SECRET}</code>`));
    assert.doesNotMatch(html, /Only owners and admins/);
    assert.match(html, />Disable</);
    const response = await postForm('/projects/p2/alerts', { intent: 'disable', id: 'ar1' }, cookie);
    assert.equal(response.status, 200);
    const call = received.findLast((r) => r.body.operationName === 'UpdateAlertRule');
    assert.deepEqual(call?.body.variables, { id: 'ar1', enabled: false });
  });

  test('the channels this instance delivers to, help true to it, email unavailable and why', async () => {
    const cookie = await signIn();
    const html = (await (await get('/projects/p2/alerts', cookie)).text()).replaceAll('<!-- -->', '');
    const select = html.slice(
      html.indexOf('<select id="rule-channel"'),
      html.indexOf('</select>', html.indexOf('rule-channel')),
    );
    assert.deepEqual(
      [...select.matchAll(/<option value="(\w+)">([^<]+)</g)].map((m) => [m[1], m[2]]),
      [
        ['WEBHOOK', 'Webhook'],
        ['SLACK', 'Slack'],
        ['TEAMS', 'Microsoft Teams'],
        ['DISCORD', 'Discord'],
      ],
      'email is not offered',
    );
    assert.match(html, /<strong>Email:<\/strong> Email alerts are not available on this Tracker instance/);
    assert.match(html, /refuses private, local and loopback addresses/);
  });

  test('a failing rule carries a warning; the log shows the answers as text and marks test sends', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p2/alerts', cookie)).text();
    assert.match(html, /role="alert">Deliveries to this channel are failing<!-- -->\s*\(3 in the last 24 hours\)/);
    assert.equal(html.match(/Deliveries to this channel are failing/g)?.length, 1, 'only on the failing rule');
    assert.ok(html.includes('refused the connection.'));
    assert.ok(html.includes('&lt;img src=x onerror=alert(7)&gt;'), 'the receiver answer is text');
    assert.match(html, /<span class="tag"> test<\/span>/);
    assert.equal(html.match(/>Send test notification</g)?.length, 3, 'a button on every rule the admin manages');
  });

  test('Send test notification shows the receiver answer under that rule, or the refusal', async () => {
    const cookie = await signIn();
    const response = await postForm('/projects/p2/alerts', { intent: 'test', id: 'ar1' }, cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const call = received.findLast((r) => r.body.operationName === 'TestAlertRule');
    assert.deepEqual(call?.body.variables, { id: 'ar1' });
    const result = html.slice(html.indexOf('data-testid="test-result"'));
    assert.match(
      result,
      /^data-testid="test-result"><strong>Test notification failed\.<\/strong> <span class="mono">HTTP 404<\/span>/,
    );
    assert.ok(result.includes('HTTP 404 Not Found: &lt;b&gt;no hook&lt;/b&gt;'));
    assert.ok(
      html.indexOf('data-testid="test-result"') < html.indexOf('aria-label="Alert rule', html.indexOf(FULL_WEBHOOK)),
      'under ar1',
    );
    const limited = await postForm('/projects/p2/alerts', { intent: 'test', id: 'ar2' }, cookie);
    assert.equal(limited.status, 400);
    assert.match(await limited.text(), /role="alert">At most 5 test notifications a minute per rule/);
  });
});

describe('performance page', () => {
  test('renders p75 cards coloured by rating, the per-page table and the trend, with hostile URLs as text', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/performance', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /class="rating-good">2,100 ms</, 'LCP 2,100 ms is good (≤ 2,500)');
    assert.match(html, /class="rating-needs-improvement">350 ms</, 'INP 350 ms needs improvement');
    assert.match(html, /class="rating-poor">0\.31</, 'CLS 0.31 is poor (> 0.25), unitless');
    assert.match(html, /Good 50%/);
    assert.match(html, /Poor 20%/);
    assert.match(html, /<rect class="fill-good" x="0" y="0" width="50" height="6">/);
    assert.match(html, /vital-value rating-poor">4,100 ms/, 'the page table colours p75 too');
    // Break opportunities (<wbr>) after its separators; the text is the URL, as text.
    assert.ok(html.replace(/<wbr\/>/g, '').includes(`https://shop.example/&lt;img src=x onerror=alert(1)&gt;`));
    assert.match(html, /https:\/\/<wbr\/>shop<wbr\/>\.example\/<wbr\/>/);
    assert.doesNotMatch(html, /<img/i);
    assert.equal((html.match(/<svg[^>]*class="trend-chart"/g) ?? []).length, 5, 'a trend chart per metric');
    assert.match(html, /<polyline class="trend-line" points="[\d.,]+"/, 'a line through measured buckets');
    assert.doesNotMatch(html, /\sstyle="/);

    const call = received.findLast((r) => r.body.operationName === 'ProjectVitals');
    const filter = call?.body.variables.filter as {
      environment: string | null;
      release: string | null;
      from: string;
      to: string;
    };
    assert.equal(filter.environment, null);
    assert.equal(filter.release, null);
    assert.equal(Date.parse(filter.to) - Date.parse(filter.from), 7 * 24 * 3_600_000, 'default range: 7 days');
    assert.equal(call?.body.variables.interval, 'HOUR');
  });

  test('passes environment, release and range to the API', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/performance?range=30d&environment=+staging+&release=1.4.0', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    const call = received.findLast((r) => r.body.operationName === 'ProjectVitals');
    const filter = call?.body.variables.filter as {
      environment: string | null;
      release: string | null;
      from: string;
      to: string;
    };
    assert.equal(filter.environment, 'staging');
    assert.equal(filter.release, '1.4.0');
    assert.equal(Date.parse(filter.to) - Date.parse(filter.from), 30 * 24 * 3_600_000);
    assert.equal(call?.body.variables.interval, 'DAY');
    assert.match(html, /<option value="30d" selected="">/);
    assert.match(html, /name="environment"[^>]*value="staging"/);
  });

  test('says, when there are none, that the browser SDK sends vitals by default and what turns them off', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/performance?environment=empty&range=nonsense', cookie)).text();
    assert.match(html, /No Web Vitals in this range/);
    assert.match(html, /sends them by\s+default/);
    assert.match(html, /<code>vitals: false<\/code>/);
    assert.doesNotMatch(html, /vitals: true/, 'true is the default: telling users to set it is untrue');
    assert.doesNotMatch(html, /trend-chart/);
  });
});

describe('logs page', () => {
  test('renders newest logs with messages and context as text, and an Older link carrying the filters', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/logs', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.indexOf('payment failed') < html.indexOf('checkout opened'), 'newest first, as the API orders');
    assert.ok(html.includes('payment failed &lt;img src=x onerror=alert(1)&gt;'));
    assert.doesNotMatch(html, /<img/i);
    assert.doesNotMatch(html, /<script>alert\(2\)/i, 'context JSON cannot close a script element');
    assert.match(html, /&quot;attempt&quot;: 2/, 'context pretty-printed as text');
    assert.match(html, /href="\/projects\/p1\/logs\?after=log-cursor-2"[^>]*>Older</);
    assert.match(
      html,
      // A link that says its state: aria-pressed is not allowed on a link (axe: aria-allowed-attr).
      /<a class="button button-small live-toggle"[^>]*href="\/projects\/p1\/logs\?live=1">Live: off<\/a>/,
    );
    const call = received.findLast((r) => r.body.operationName === 'ProjectLogs');
    assert.deepEqual(call?.body.variables, {
      projectId: 'p1',
      filter: { levels: null, text: null, environment: null, release: null, service: null, attributes: null },
      first: 50,
      after: null,
    });
  });

  test('passes text, levels, environment, release, service and cursor to the API; unknown levels are dropped', async () => {
    const cookie = await signIn();
    const response = await get(
      '/projects/p1/logs?q=+timeout+&level=warn&level=error&level=%3Cb%3E&environment=production&release=1.0.0&service=checkout&attr=order.id%3DA-1042&attr=+http.route+%3D+%2Fa%3Db+&after=log-cursor-2&live=1',
      cookie,
    );
    assert.equal(response.status, 200);
    const html = await response.text();
    const call = received.findLast((r) => r.body.operationName === 'ProjectLogs');
    assert.deepEqual(call?.body.variables, {
      projectId: 'p1',
      filter: {
        levels: ['WARN', 'ERROR'],
        text: 'timeout',
        environment: 'production',
        release: '1.0.0',
        service: 'checkout',
        attributes: [
          { key: 'order.id', value: 'A-1042' },
          { key: 'http.route', value: '/a=b' },
        ],
      },
      first: 50,
      after: 'log-cursor-2',
    });
    assert.match(
      html,
      /name="level" checked="" value="warn"|value="warn" checked=""|checked="" name="level" value="warn"/,
    );
    assert.match(html, /id="attr" name="attr"[^>]*value="order.id=A-1042"/);
    assert.match(html, /type="hidden" name="attr" value=" http.route = \/a=b "/, 'further attribute filters are kept');
    assert.match(html, />Older logs</);
    assert.match(html, />Newest</);
    assert.match(html, />Live: off</, 'an older page is not live');
  });

  test('an attribute filter without `=` is not sent to the API and the page says how to write it', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/logs?attr=%3Cb%3Eno-equals', cookie)).text();
    const call = received.findLast((r) => r.body.operationName === 'ProjectLogs');
    assert.equal((call?.body.variables as any).filter.attributes, null);
    assert.match(
      html,
      /role="alert"[^>]*>“(<!-- -->)?&lt;b&gt;no-equals(<!-- -->)?” is not an attribute filter: write it as <code>key=value<\/code>/,
    );
  });

  test('live tail: the toggle turns on and off through the URL', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/logs?live=1&level=error', cookie)).text();
    assert.match(html, />Live: on</);
    assert.match(html, /Following new logs/);
    assert.match(html, /href="\/projects\/p1\/logs\?level=error"/, 'the toggle turns it off, keeping filters');
  });

  test('empty states tell a filtered search from no logs at all', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/logs?q=nothing', cookie)).text();
    assert.match(html, /No logs match these filters\./);
    assert.doesNotMatch(html, />Older</);
  });
});

describe('feedback page', () => {
  test('lists message, name, email, page, time and the linked issue and event, all as text', async () => {
    const cookie = await signIn();
    const response = await get('/projects/p1/feedback', cookie);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.includes('It broke &lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;'));
    assert.doesNotMatch(html, /<script>alert\(2\)/i);
    assert.doesNotMatch(html, /<img/i);
    assert.match(
      html,
      /Bo &lt;b&gt;Smith&lt;\/b&gt;(<!-- -->)? <span class="muted">\((<!-- -->)?bo@example\.com(<!-- -->)?\)<\/span>/,
    );
    assert.match(html, /No name or email/);
    // The page the widget was opened on, as a link (http only; a javascript: URL would stay text).
    assert.match(html, /Written on<\/span> (<!-- -->)?<a[^>]*href="https:\/\/shop\.example\/checkout\?step=2"/);
    assert.match(html, /href="\/projects\/p1\/issues\/i2"[^>]*>&lt;img src=x onerror=alert\(1\)&gt;</);
    assert.doesNotMatch(html, /href="javascript:/i, 'the event URL stays text');
    assert.ok(html.includes('javascript:alert(6)'));
    assert.match(html, /<time[^>]*>3 minutes ago<\/time>/);
    assert.match(html, /\((<!-- -->)?26(<!-- -->)?\)/, 'the total');
    assert.match(html, /href="\/projects\/p1\/feedback\?after=fb-cursor-2"[^>]*>Older</);
    const call = received.findLast((r) => r.body.operationName === 'ProjectFeedback');
    assert.deepEqual(call?.body.variables, { projectId: 'p1', first: 25, after: null });
  });

  test('passes the cursor on and says when a page is empty', async () => {
    const cookie = await signIn();
    const html = await (await get('/projects/p1/feedback?after=fb-cursor-2', cookie)).text();
    const call = received.findLast((r) => r.body.operationName === 'ProjectFeedback');
    assert.deepEqual(call?.body.variables, { projectId: 'p1', first: 25, after: 'fb-cursor-2' });
    assert.match(html, /No older feedback\./);
    assert.match(html, /href="\/projects\/p1\/feedback"[^>]*>Newest</);
  });
});
