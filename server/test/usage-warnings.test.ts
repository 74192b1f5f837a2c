/**
 * Usage warnings (issue 5): owners and admins get one email at 80 % and one at 100 % of a
 * monthly limit, whatever the number of worker processes and runs. A real SMTP server
 * (smtp-server) on loopback receives them. Counts are set where the edge keeps them (the Redis
 * key, the `org_usage` row), so the figures in the emails are exact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { quotaPeriod, usageRedisKey, type SmtpConfig } from '@tracker/core';
import { startSmtpReceiver } from '@tracker/core/testing';
import { createClient } from 'redis';
import { createTracker, type Tracker } from '../src';
import { createTestEnv, gqlOk, signUpWithProject, waitFor, type TestEnv } from './helpers';

/** The loopback SMTP receiver and the mail settings that point Tracker at it. */
async function startSmtp() {
  const receiver = await startSmtpReceiver();
  const smtp: SmtpConfig = {
    host: '127.0.0.1',
    port: receiver.port,
    secure: false,
    from: 'Tracker <usage@tracker.test>',
  };
  return { ...receiver, smtp };
}

/** The message body without quoted-printable soft line breaks, for matching. */
const body = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds a user of another account to the organization with a role, straight in the database. */
async function addMember(
  tracker: Tracker,
  organizationId: string,
  role: 'admin' | 'member',
  mail: { messages: { to: string[]; raw: string }[] },
): Promise<string> {
  const other = await signUpWithProject(tracker.url, 'Web', mail);
  const [user] = await tracker.db.ds.query('SELECT id FROM users WHERE email = $1', [other.email]);
  await tracker.db.ds.query('INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3)', [
    organizationId,
    user.id,
    role,
  ]);
  return other.email;
}

describe('usage warnings across two worker processes (postgres+redis)', () => {
  let env: TestEnv;
  let a: Tracker;
  let b: Tracker;
  let redis: ReturnType<typeof createClient>;
  let mail: Awaited<ReturnType<typeof startSmtp>>;

  before(async () => {
    mail = await startSmtp();
    env = await createTestEnv('postgres+redis', { smtp: undefined });
    const config = { ...env.config, smtp: mail.smtp, publicUrl: 'https://tracker.example.com' };
    // Two processes with the worker role, each running the job every 200 ms.
    a = await createTracker({ config, usageWarnings: { intervalMs: 200, firstRunMs: 0 } });
    await a.listen();
    b = await createTracker({
      config: { ...config, roles: ['worker'] },
      migrate: false,
      usageWarnings: { intervalMs: 200, firstRunMs: 0 },
    });
    await b.listen();
    redis = createClient({ url: env.config.redisUrl });
    await redis.connect();
  });
  after(async () => {
    await redis?.quit().catch(() => undefined);
    await a?.close();
    await b?.close();
    await mail?.close();
    await env?.cleanup();
  });

  const setUsage = (organizationId: string, meter: 'events' | 'logs', count: number) =>
    redis.set(usageRedisKey(env.config.redisPrefix, meter, organizationId, quotaPeriod()), String(count));

  /** Both processes' timers plus explicit concurrent runs on both: still one email per threshold. */
  async function runEverywhere() {
    await Promise.all([a.usageWarnings!.runOnce(), b.usageWarnings!.runOnce(), a.usageWarnings!.runOnce()]);
    await sleep(600); // three more timer runs in each process
  }

  test('one email at 80 % and one at 100 % to owners and admins, not members', { timeout: 60_000 }, async () => {
    const owner = await signUpWithProject(a.url, 'Web', mail);
    const org = owner.organization;
    const admin = await addMember(a, org.id, 'admin', mail);
    const member = await addMember(a, org.id, 'member', mail);

    await setUsage(org.id, 'events', 3_999);
    await runEverywhere();
    assert.equal(mail.messages.length, 0, 'nothing below 80 %');

    await setUsage(org.id, 'events', 4_000);
    await waitFor('the 80 % email', async () => mail.messages.length >= 1);
    await runEverywhere();
    assert.equal(mail.messages.length, 1);
    const first = mail.messages[0];
    assert.deepEqual([...first.to].sort(), [owner.email, admin].sort());
    assert.equal(first.to.includes(member), false);
    const text = body(first.raw);
    assert.match(text, /Subject: \[Tracker\] Org \d+ has used 80% of its monthly event quota/);
    assert.match(text, /4,000 of 5,000 events/);
    assert.match(text, /1,000 remain/);
    assert.ok(text.includes(`https://tracker.example.com/orgs/${org.slug}/billing`), 'billing link');

    await setUsage(org.id, 'events', 5_000);
    await waitFor('the 100 % email', async () => mail.messages.length >= 2);
    await runEverywhere();
    assert.equal(mail.messages.length, 2);
    const second = body(mail.messages[1].raw);
    assert.match(second, /Subject: \[Tracker\] Org \d+ has reached its monthly event quota/);
    assert.match(second, /5,000 of 5,000 events/);

    const rows = await a.db.ds.query(
      `SELECT threshold, status, used, quota, attempts, recipients FROM usage_warnings
        WHERE organization_id = $1 ORDER BY threshold`,
      [org.id],
    );
    assert.deepEqual(
      rows.map((r: any) => ({
        ...r,
        used: Number(r.used),
        quota: Number(r.quota),
        recipients: [...r.recipients].sort(),
      })),
      [
        { threshold: 80, status: 'sent', used: 4_000, quota: 5_000, attempts: 1, recipients: [...first.to].sort() },
        { threshold: 100, status: 'sent', used: 5_000, quota: 5_000, attempts: 1, recipients: [...first.to].sort() },
      ],
    );
  });

  test('a jump straight past 100 % of the log cap sends only the 100 % email', { timeout: 60_000 }, async () => {
    const owner = await signUpWithProject(a.url, 'Web', mail);
    const before = mail.messages.length;
    await setUsage(owner.organization.id, 'logs', 50_000);
    await waitFor('the log cap email', async () => mail.messages.length > before);
    await runEverywhere();
    assert.equal(mail.messages.length, before + 1);
    assert.match(body(mail.messages[before].raw), /has reached its monthly log quota/);
    const rows = await a.db.ds.query(
      `SELECT meter, threshold, status FROM usage_warnings WHERE organization_id = $1 ORDER BY threshold`,
      [owner.organization.id],
    );
    assert.deepEqual(rows, [
      { meter: 'logs', threshold: 80, status: 'superseded' },
      { meter: 'logs', threshold: 100, status: 'sent' },
    ]);
  });
});

describe('usage warnings in embedded mode', () => {
  let env: TestEnv;
  let tracker: Tracker;
  let mail: Awaited<ReturnType<typeof startSmtp>>;

  before(async () => {
    mail = await startSmtp();
    env = await createTestEnv('embedded');
    tracker = await createTracker({
      config: { ...env.config, smtp: mail.smtp },
      usageWarnings: { intervalMs: 60_000 },
    });
    await tracker.listen();
  });
  after(async () => {
    await tracker?.close();
    await mail?.close();
    await env?.cleanup();
  });

  const setUsage = (organizationId: string, count: number) =>
    tracker.db.ds.query(
      `INSERT INTO org_usage (organization_id, meter, period, count) VALUES ($1, 'events', $2, $3)
       ON CONFLICT (organization_id, meter, period) DO UPDATE SET count = excluded.count`,
      [organizationId, quotaPeriod(), count],
    );

  test('reads the org_usage table and emails once', { timeout: 60_000 }, async () => {
    const owner = await signUpWithProject(tracker.url, 'Web', mail);
    await setUsage(owner.organization.id, 4_100);
    const runs = await Promise.all([tracker.usageWarnings!.runOnce(), tracker.usageWarnings!.runOnce()]);
    assert.equal(runs[0].sent, 1);
    const again = await tracker.usageWarnings!.runOnce();
    assert.deepEqual(again, { queued: 0, sent: 0, unsent: 0, failed: 0 });
    assert.equal(mail.messages.length, 1);
    assert.deepEqual(mail.messages[0].to, [owner.email]);
    assert.match(body(mail.messages[0].raw), /4,100 of 5,000 events/);
  });

  test("reads the month of the clock it is given, not the wall clock's", { timeout: 60_000 }, async () => {
    await tracker.close();
    const held = Date.parse('2031-05-15T12:00:00Z');
    tracker = await createTracker({
      config: { ...env.config, smtp: mail.smtp },
      usageWarnings: { intervalMs: 60_000 },
      clock: () => held,
    });
    await tracker.listen();
    const owner = await signUpWithProject(tracker.url, 'Web', mail);
    await tracker.db.ds.query(
      `INSERT INTO org_usage (organization_id, meter, period, count) VALUES ($1, 'events', '2031-05', 4100)`,
      [owner.organization.id],
    );
    const sentBefore = mail.messages.length;
    assert.deepEqual(await tracker.usageWarnings!.runOnce(), { queued: 1, sent: 1, unsent: 0, failed: 0 });
    const rows = await tracker.db.ds.query(
      'SELECT period, threshold, status FROM usage_warnings WHERE organization_id = $1',
      [owner.organization.id],
    );
    assert.deepEqual(rows, [{ period: '2031-05', threshold: 80, status: 'sent' }]);
    assert.equal(mail.messages.length, sentBefore + 1);
    assert.deepEqual(mail.messages.at(-1)!.to, [owner.email]);
  });

  test('without SMTP the warning is logged and recorded as due but unsent, once', { timeout: 60_000 }, async () => {
    // The same database, opened by a process without SMTP settings.
    await tracker.close();
    tracker = await createTracker({
      config: { ...env.config, smtp: undefined },
      usageWarnings: { intervalMs: 60_000 },
    });
    await tracker.listen();
    const owner = await signUpWithProject(tracker.url);
    await setUsage(owner.organization.id, 5_000);
    assert.deepEqual(await tracker.usageWarnings!.runOnce(), { queued: 2, sent: 0, unsent: 1, failed: 0 });
    assert.deepEqual(await tracker.usageWarnings!.runOnce(), { queued: 0, sent: 0, unsent: 0, failed: 0 });
    const rows = await tracker.db.ds.query(
      'SELECT threshold, status, last_error FROM usage_warnings WHERE organization_id = $1 ORDER BY threshold',
      [owner.organization.id],
    );
    assert.deepEqual(rows, [
      { threshold: 80, status: 'superseded', last_error: null },
      { threshold: 100, status: 'unsent', last_error: 'SMTP is not configured (TRACKER_SMTP_URL)' },
    ]);
    const usage = await gqlOk(
      tracker.url,
      `query($o: ID!) { usage(organizationId: $o) { events { used remaining } } }`,
      { o: owner.organization.id },
      owner.token,
    );
    assert.deepEqual(usage.usage.events, { used: 5_000, remaining: 0 });
  });
});
