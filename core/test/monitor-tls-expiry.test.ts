/**
 * An uptime monitor warns 14 days before its site's TLS certificate ends (issue 33), on both
 * databases, with a held clock: a warning issue of its own (level warning) opens once and fires
 * MONITOR_FAILED once, its title follows the days left without counting each check as an event,
 * a renewed certificate resolves it, and a check that saw no certificate changes nothing. The
 * monitor's failure issue is not touched by any of it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config';
import { signUp } from '../src/accounts';
import { sessionCaller } from '../src/access';
import { createAlertRule } from '../src/alerts';
import { openDatabase, type Database } from '../src/db';
import { createProject } from '../src/projects';
import {
  claimUptimeChecks,
  createMonitor,
  recordUptimeCheck,
  tlsExpiryFingerprint,
  type UptimeOutcome,
} from '../src/monitors';
import { createTempDir, createTestPostgres, type TestPostgres } from '../src/testing';

const DAY = 86_400_000;

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`TLS certificate expiry warning (${kind})`, () => {
    let pg: TestPostgres | undefined;
    const dir = createTempDir();
    let db: Database;
    let projectId: string;
    let monitorId: string;
    let now = Date.parse('2026-09-01T12:00:00Z');

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      db = await openDatabase(loadConfig({ TRACKER_DATA_DIR: dir.path, ...(pg ? { DATABASE_URL: pg.url } : {}) }), {
        migrate: true,
      });
      const s = await signUp(
        db.ds,
        { email: `${randomUUID()}@example.com`, password: 'correct horse battery', organizationName: 'T' },
        'business',
      );
      const caller = sessionCaller(s.user.id);
      projectId = (await createProject(db.ds, s.user.id, s.organization.id, 'Site')).project.id;
      await createAlertRule(db.ds, caller, {
        projectId,
        kind: 'MONITOR_FAILED',
        channel: { type: 'WEBHOOK', url: 'http://127.0.0.1:9/hook' },
        allowPrivateTargets: true,
      } as Parameters<typeof createAlertRule>[2]);
      const monitor = await createMonitor(
        db.ds,
        caller,
        {
          projectId,
          kind: 'uptime',
          settings: { slug: 'shop', url: 'https://shop.example.com/health', intervalMinutes: 1 },
        },
        { allowPrivateTargets: false, now: new Date(now) },
      );
      monitorId = monitor.id;
    });
    after(async () => {
      await db?.close();
      await pg?.drop();
      dir.remove();
    });

    /** One check a minute after the last, seeing a certificate that ends `daysLeft` days from now. */
    const check = async (daysLeft: number | null, ok = true) => {
      now += 60_000;
      const [claim] = await claimUptimeChecks(db.ds, { now, limit: 10 });
      assert.ok(claim, 'the check is due');
      const outcome: UptimeOutcome = {
        ok,
        statusCode: ok ? 200 : null,
        ttfbMs: 5,
        totalMs: 6,
        responseBytes: ok ? 4 : null,
        tlsExpiresAt: daysLeft === null ? null : new Date(now + daysLeft * DAY),
        error: ok ? null : 'connection refused',
      };
      return recordUptimeCheck(db.ds, claim, outcome, { now, publicUrl: 'http://tracker.test' });
    };
    const warning = async () => {
      const [row] = await db.ds.query(
        `SELECT id, status, level, type, title, event_count::int AS event_count FROM issues WHERE project_id = $1 AND fingerprint = $2`,
        [projectId, tlsExpiryFingerprint(monitorId)],
      );
      return row as
        { id: string; status: string; level: string; type: string; title: string; event_count: number } | undefined;
    };

    test('a certificate good for more than 14 days raises nothing', async () => {
      const r = await check(30);
      assert.deepEqual(r, { stored: true, alertDeliveryIds: [] });
      assert.equal(await warning(), undefined);
    });

    test('14 days before the end: one warning issue, one alert; later checks update the title only', async () => {
      const first = await check(13.5);
      assert.equal(first.alertDeliveryIds.length, 1, 'MONITOR_FAILED fires once for the warning');
      const opened = await warning();
      assert.equal(opened?.status, 'open');
      assert.equal(opened?.level, 'warning');
      assert.equal(opened?.type, 'CertificateExpiry');
      assert.match(opened!.title, /^TLS certificate of shop\.example\.com ends on 2026-09-15 \(in 13 days\)$/);
      now += 3 * DAY;
      const later = await check(10.4);
      assert.deepEqual(later.alertDeliveryIds, [], 'still open: no second alert');
      const updated = await warning();
      assert.equal(updated?.id, opened?.id);
      assert.match(updated!.title, /\(in 10 days\)$/);
      assert.equal(updated?.event_count, 1, 'a check is not an event of the warning');
      const [activity] = await db.ds.query(
        `SELECT kind, message FROM issue_activity WHERE issue_id = $1 ORDER BY created_at LIMIT 1`,
        [opened!.id],
      );
      assert.equal(activity.kind, 'FIRST_SEEN');
      assert.match(activity.message, /TLS certificate of shop\.example\.com ends on/);
    });

    test('a check without a certificate (site down) leaves the warning as it is, and the failure is its own issue', async () => {
      const before = await warning();
      await check(null, false);
      assert.deepEqual(await warning(), before);
      const [failure] = await db.ds.query(
        `SELECT count(*)::int AS n FROM issues WHERE project_id = $1 AND fingerprint <> $2`,
        [projectId, tlsExpiryFingerprint(monitorId)],
      );
      assert.equal(failure.n, 0, 'one failure is under the tolerance of 3: no failure issue yet');
    });

    test('a renewed certificate resolves the warning; an ended one reopens it as a regression', async () => {
      await check(90);
      const resolved = await warning();
      assert.equal(resolved?.status, 'resolved');
      const [renewal] = await db.ds.query(
        `SELECT kind, message FROM issue_activity WHERE issue_id = $1 AND kind = 'RESOLVED'`,
        [resolved!.id],
      );
      assert.match(renewal.message, /was renewed: it now ends on/);
      const again = await check(-1);
      assert.equal(again.alertDeliveryIds.length, 1);
      const reopened = await warning();
      assert.equal(reopened?.status, 'open');
      assert.match(reopened!.title, /ended on \d{4}-\d{2}-\d{2}$/);
    });
  });
}
