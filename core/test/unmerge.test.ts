import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createProject,
  mergeIssues,
  openDatabase,
  persistEvents,
  prepareEvent,
  sessionCaller,
  signUp,
  unmergeIssue,
  type Caller,
  type Database,
  type ErrorEvent,
} from '../src';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '../src/testing';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute));

interface Sent {
  fp: string;
  minute: number;
  user?: Record<string, string>;
  release?: string;
  environment?: string;
}

/** Groups, users, releases, environments and searchable tag values of every issue of a project, keyed by grouping key. */
async function snapshot(db: Database, projectId: string): Promise<Record<string, unknown>> {
  const issues: Array<Record<string, unknown>> = await db.ds.query(
    `SELECT i.id, i.fingerprint, i.title, i.status, i.event_count::int AS events, i.user_count AS users,
            i.first_seen, i.last_seen,
            (SELECT coalesce(array_agg(u.user_key ORDER BY u.user_key), '{}') FROM issue_users u WHERE u.issue_id = i.id) AS user_keys,
            (SELECT coalesce(array_agg(r.environment || '/' || r.release || '/' || r.event_count || '/' || r.first_seen::text || '/' || r.last_seen::text
                     ORDER BY r.environment, r.release), '{}') FROM issue_releases r WHERE r.issue_id = i.id) AS releases,
            (SELECT coalesce(array_agg(e.environment || '/' || e.event_count || '/' || e.first_seen::text || '/' || e.last_seen::text
                     ORDER BY e.environment), '{}') FROM issue_environments e WHERE e.issue_id = i.id) AS environments,
            (SELECT coalesce(array_agg(t.key || '=' || t.value ORDER BY t.key, t.value), '{}') FROM issue_tag_values t
              WHERE t.issue_id = i.id) AS tag_values,
            (SELECT coalesce(array_agg(ev.message ORDER BY ev.timestamp), '{}') FROM events ev WHERE ev.issue_id = i.id) AS messages
       FROM issues i WHERE i.project_id = $1`,
    [projectId],
  );
  const out: Record<string, unknown> = {};
  for (const { id: _id, fingerprint: _fp, ...rest } of issues) {
    const messages = rest.messages as string[];
    out[String(rest.title)] = {
      ...rest,
      first_seen: String(rest.first_seen),
      last_seen: String(rest.last_seen),
      messages,
    };
  }
  return out;
}

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`unmergeIssue restores each group exactly (${kind})`, () => {
    let pg: TestPostgres | undefined;
    let dir: TempDir | undefined;
    let db: Database;

    before(async () => {
      pg = kind === 'postgres' ? await createTestPostgres() : undefined;
      dir = kind === 'pglite' ? createTempDir() : undefined;
      db = await openDatabase({ databaseUrl: pg?.url, dataDir: dir?.path ?? '' }, { migrate: true });
    });
    after(async () => {
      await db.close();
      await pg?.drop();
      dir?.remove();
    });

    async function account(): Promise<{ caller: Caller; projectId: string }> {
      const s = await signUp(
        db.ds,
        { email: `unmerge-${randomUUID()}@example.com`, password: 'long enough pw', organizationName: 'Unmerge' },
        'pro',
      );
      const { project } = await createProject(db.ds, s.user.id, s.organization.id, 'Web');
      return { caller: sessionCaller(s.user.id), projectId: project.id };
    }

    async function send(projectId: string, events: Sent[]): Promise<void> {
      const prepared = events.map((e) =>
        prepareEvent({
          v: 1,
          kind: 'error',
          projectId,
          receivedAt: at(e.minute).toISOString(),
          event: {
            type: 'Error',
            message: `${e.fp} at ${e.minute}`,
            environment: e.environment ?? 'production',
            fingerprint: [e.fp],
            timestamp: at(e.minute).toISOString(),
            eventId: randomUUID(),
            ...(e.user ? { user: e.user } : {}),
            ...(e.release ? { release: e.release } : {}),
          } as ErrorEvent & { eventId: string },
        }),
      );
      await db.ds.transaction((em) => persistEvents(em, prepared));
    }

    async function issueOf(projectId: string, title: string): Promise<string> {
      const rows: Array<{ id: string }> = await db.ds.query(
        'SELECT id FROM issues WHERE project_id = $1 AND title = $2',
        [projectId, title],
      );
      return rows[0].id;
    }

    // Titles come from the first event ("Error: T at 2"), so each group keeps a stable name.
    const before1: Sent[] = [
      { fp: 'S', minute: 1, user: { id: 'y' }, release: '2.0', environment: 'staging' },
      { fp: 'T', minute: 2, user: { id: 'x' }, release: '1.0' },
      { fp: 'T', minute: 3, user: { email: ' Y@Example.com ' }, release: '1.0' },
      { fp: 'S', minute: 4, user: { id: 'z' }, release: '1.0' },
      { fp: 'S2', minute: 5, user: { id: 'w' } },
      { fp: 'T', minute: 6 },
    ];
    const afterMerge: Sent[] = [
      { fp: 'S2', minute: 7, user: { id: 'v' }, release: '1.0' },
      { fp: 'S', minute: 8, user: { id: 'x' }, release: '2.0', environment: 'staging' },
      { fp: 'T', minute: 9, user: { id: 'z' }, release: '1.0' },
    ];

    test('nested merges split back level by level, identical to a project where nothing was merged', async () => {
      const control = await account();
      await send(control.projectId, [...before1, ...afterMerge]);
      const expected = await snapshot(db, control.projectId);

      const p = await account();
      await send(p.projectId, before1);
      const t = await issueOf(p.projectId, 'Error: T at 2');
      const s = await issueOf(p.projectId, 'Error: S at 1');
      const s2 = await issueOf(p.projectId, 'Error: S2 at 5');
      await mergeIssues(db.ds, { caller: p.caller, targetId: s, sourceId: s2, now: at(6) });
      await mergeIssues(db.ds, { caller: p.caller, targetId: t, sourceId: s, now: at(6) });
      await send(p.projectId, afterMerge);
      const merged = await snapshot(db, p.projectId);
      assert.deepEqual(Object.keys(merged), ['Error: T at 2']);
      assert.equal((merged['Error: T at 2'] as { events: number }).events, 9);

      const outer = await unmergeIssue(db.ds, { caller: p.caller, id: t });
      assert.deepEqual(
        outer.map((i) => i.id),
        [t, s],
      );
      // The timeline: UNMERGED on both sides, and the source's own rows (its FIRST_SEEN) back with it.
      const kinds = async (id: string) =>
        (
          (await db.ds.query('SELECT kind FROM issue_activity WHERE issue_id = $1 ORDER BY created_at, kind', [
            id,
          ])) as Array<{
            kind: string;
          }>
        ).map((r) => r.kind);
      assert.ok((await kinds(t)).includes('UNMERGED'));
      assert.deepEqual(
        (await kinds(s)).filter((k) => k !== 'MERGED'),
        ['FIRST_SEEN', 'FIRST_SEEN', 'UNMERGED'],
      );
      const inner = await unmergeIssue(db.ds, { caller: p.caller, id: s });
      assert.deepEqual(
        inner.map((i) => i.id),
        [s, s2],
      );
      assert.deepEqual(await snapshot(db, p.projectId), expected);

      // Later events of each key go to their own issue again, not through a stale alias.
      await send(p.projectId, [{ fp: 'S2', minute: 10 }]);
      await send(control.projectId, [{ fp: 'S2', minute: 10 }]);
      assert.deepEqual(await snapshot(db, p.projectId), await snapshot(db, control.projectId));
    });

    test('an issue merged before merges were recorded cannot be split; one never merged is refused', async () => {
      const p = await account();
      await send(p.projectId, [
        { fp: 'A', minute: 1 },
        { fp: 'B', minute: 2 },
      ]);
      const a = await issueOf(p.projectId, 'Error: A at 1');
      const b = await issueOf(p.projectId, 'Error: B at 2');
      await assert.rejects(unmergeIssue(db.ds, { caller: p.caller, id: a }), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'BAD_USER_INPUT');
        assert.match(err.message, /not a merge/);
        return true;
      });
      await mergeIssues(db.ds, { caller: p.caller, targetId: a, sourceId: b });
      // What a merge made before this feature left behind: an alias and no record.
      await db.ds.query('DELETE FROM issue_merges WHERE target_issue_id = $1', [a]);
      await assert.rejects(unmergeIssue(db.ds, { caller: p.caller, id: a }), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'CONFLICT');
        assert.match(err.message, /merged before merges were recorded/);
        return true;
      });
    });

    test('another organization gets NOT_FOUND, as for a missing issue', async () => {
      const p = await account();
      await send(p.projectId, [
        { fp: 'A', minute: 1 },
        { fp: 'B', minute: 2 },
      ]);
      const a = await issueOf(p.projectId, 'Error: A at 1');
      await mergeIssues(db.ds, {
        caller: p.caller,
        targetId: a,
        sourceId: await issueOf(p.projectId, 'Error: B at 2'),
      });
      const stranger = await account();
      for (const id of [a, randomUUID(), 'not-a-uuid']) {
        await assert.rejects(unmergeIssue(db.ds, { caller: stranger.caller, id }), { code: 'NOT_FOUND' });
      }
      assert.equal((await unmergeIssue(db.ds, { caller: p.caller, id: a })).length, 2);
    });
  });
}
