/**
 * `npm run tracker -- backup <file>` and `restore <file> [--force]` on both runtimes (issue 35
 * §4): a restore into an empty instance answers the same GraphQL for issues, events, releases and
 * alert rules (and the same session token still works: the database came back whole); a restore
 * into a used instance is refused unless forced; an embedded backup while the server runs says
 * to stop it; a file of the other kind, or no backup at all, is refused with a message.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setOrganizationPlan } from '@tracker/core';
import { createTempDir, type TempDir } from '@tracker/core/testing';
import type { Tracker } from '../src';
import { runCli } from '../src/cli';
import {
  childEnv,
  createTestEnv,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

const SNAPSHOT = `query($p: ID!) {
  issues(projectId: $p, first: 50) { totalCount nodes { id title eventCount status
    events(first: 10) { nodes { id eventId message } } } }
  releases(projectId: $p) { version environment }
  alertRules(projectId: $p) { id kind enabled channel { type url } }
}`;

for (const mode of MODES) {
  describe(`backup and restore (${mode})`, () => {
    const envs: TestEnv[] = [];
    const trackers: Tracker[] = [];
    let files: TempDir | undefined;
    after(async () => {
      for (const t of trackers) await t.close().catch(() => undefined);
      for (const e of envs) await e.cleanup().catch(() => undefined);
      files?.remove();
    });
    const start = async (env: TestEnv) => {
      const t = await startTracker(env, { roles: ['ingest', 'worker', 'api'] });
      trackers.push(t);
      return t;
    };
    const stop = async (t: Tracker) => {
      await t.close();
      trackers.splice(trackers.indexOf(t), 1);
    };

    test(
      'a restore into an empty instance answers the same GraphQL; used instances need --force',
      { timeout: 300_000 },
      async () => {
        files = createTempDir('tracker-backup-');
        const source = await createTestEnv(mode);
        envs.push(source);
        let tracker = await start(source);
        const acct = await signUpWithProject(tracker.url, 'Backed up');
        await setOrganizationPlan(tracker.db.ds, acct.organization.slug, 'business');
        for (const message of ['Payment failed', 'Payment failed', 'Cart is empty']) {
          const sent = await sendError(tracker.url, acct.key, {
            eventId: randomUUID(),
            type: 'Error',
            message,
            environment: 'production',
            release: 'shop@1.2.0',
            fingerprint: [message],
            stack: `Error: ${message}\n    at checkout (/srv/app/cart.js:${message.length}:5)`,
          });
          assert.equal(sent.status, 202);
        }
        await gqlOk(
          tracker.url,
          `mutation($p: ID!) { markRelease(projectId: $p, version: "shop@1.2.0", environment: "production") { id } }`,
          { p: acct.project.id },
          acct.token,
        );
        await gqlOk(
          tracker.url,
          `mutation($p: ID!, $c: AlertChannelInput!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: $c) { id } }`,
          { p: acct.project.id, c: { type: 'WEBHOOK', url: 'https://hooks.example.com/tracker' } },
          acct.token,
        );
        const before = await waitFor('three events in two issues', async () => {
          const d = await gqlOk(tracker.url, SNAPSHOT, { p: acct.project.id }, acct.token);
          const events = d.issues.nodes.reduce((n: number, i: any) => n + i.events.nodes.length, 0);
          return d.issues.totalCount === 2 && events === 3 ? d : undefined;
        });
        assert.equal(before.releases.length, 1);
        assert.equal(before.alertRules.length, 1);

        const file = join(files.path, `tracker-${mode.replace(/\W/g, '-')}.backup`);
        if (mode === 'embedded') {
          // The running server holds the folder: the command says so and writes nothing.
          const refused = await runCli(['backup', file], childEnv(source));
          assert.equal(refused.code, 1);
          assert.match(refused.out, /Stop Tracker, run the backup/);
          assert.equal(existsSync(file), false);
          await stop(tracker);
        }
        const made = await runCli(['backup', file], childEnv(source));
        assert.equal(made.code, 0, made.out);
        assert.ok(existsSync(file));
        assert.match((await runCli(['backup', file], childEnv(source))).out, /exists: choose a new file name/);

        // A new, empty instance.
        const target = await createTestEnv(mode);
        envs.push(target);
        const restored = await runCli(['restore', file], childEnv(target));
        assert.equal(restored.code, 0, restored.out);
        tracker = await start(target);
        const after = await gqlOk(tracker.url, SNAPSHOT, { p: acct.project.id }, acct.token);
        assert.deepEqual(after, before);

        // Now the target is used: refused without --force, replaced with it.
        await stop(tracker);
        const again = await runCli(['restore', file], childEnv(target));
        assert.equal(again.code, 1);
        assert.match(again.out, /--force/);
        const forced = await runCli(['restore', file, '--force'], childEnv(target));
        assert.equal(forced.code, 0, forced.out);
        if (mode === 'embedded') {
          const parent = dirname(target.config.dataDir);
          const prefix = `${basename(target.config.dataDir)}.before-restore-`;
          const aside = readdirSync(parent).filter((n) => n.startsWith(prefix));
          assert.equal(aside.length, 1, 'the replaced folder is moved aside, not deleted');
          for (const name of aside) rmSync(join(parent, name), { recursive: true, force: true });
        }
        tracker = await start(target);
        assert.deepEqual(await gqlOk(tracker.url, SNAPSHOT, { p: acct.project.id }, acct.token), before);
        await stop(tracker);

        // Files that are not a backup of this runtime's kind.
        const junk = join(files.path, 'junk.backup');
        writeFileSync(junk, 'not a backup');
        assert.match(
          (await runCli(['restore', junk, '--force'], childEnv(target))).out,
          /is not an? (PostgreSQL|embedded) backup/,
        );
        assert.match((await runCli(['restore', join(files.path, 'missing')], childEnv(target))).out, /no file/);
        assert.equal((await runCli(['restore'], childEnv(target))).code, 2);
      },
    );
  });
}
