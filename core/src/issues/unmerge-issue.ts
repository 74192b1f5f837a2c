import type { DataSource, EntityManager } from 'typeorm';
import { lockIssuesForCaller, requireLockedIssue, type Caller } from '../access';
import { recordIssueActivities } from '../activity/record-activity';
import { queryRows } from '../db/query-rows';
import { Issue } from '../entities';
import { AppError } from '../errors';

/** The user key of an event's `user` column, in SQL: `userKeyOf` (prepare-event.ts) for stored rows. */
const USER_KEY_SQL = `CASE
  WHEN coalesce(e."user"->>'id', '') <> '' THEN 'id:' || (e."user"->>'id')
  WHEN coalesce(e."user"->>'email', '') <> '' THEN 'email:' || lower(btrim(e."user"->>'email', E' \\t\\n\\r\\f\\v'))
END`;

interface MergeRow {
  id: string;
  project_id: string;
  source_issue_id: string;
  fingerprint: string;
  aliases: string[];
  source: Record<string, unknown>;
  target_first_seen: Date;
  target_last_seen: Date;
  activity_ids: string[];
  comment_ids: string[];
}

/**
 * Splits a merged issue back into the groups merged into it (`mergeIssues`), in one transaction:
 * each source issue comes back with its id, title, state and grouping key, takes back the
 * aliases it carried and the events whose own grouping key (`events.grouping_key`) is one of its
 * keys, and its feedback with them; counters, users, releases and environments are recomputed
 * from those events on both sides. Later events of the source's keys go to the source again.
 * Answers the target first, then the restored issues in merge order.
 *
 * Merges made before merges were recorded (before issue 19) cannot be split: their events do
 * not say which group they came from. An issue with only such merges answers CONFLICT saying so.
 * Where retention purged some of a group's events, the counters kept at merge time are a floor:
 * a restored issue never shows fewer events or users, or a later first seen, than it had.
 * Regressions and the alert delivery log stay with the target (they were about the merged issue).
 */
export async function unmergeIssue(
  ds: DataSource,
  { caller, id, now = new Date() }: { caller: Caller; id: string; now?: Date },
): Promise<Issue[]> {
  const ids = await ds.transaction(async (em) => {
    const locked = await lockIssuesForCaller(em, caller, [id], 'write', 'unmerge issues');
    const target = requireLockedIssue(caller, locked[0], 'write', 'unmerge issues');
    const merges = await queryRows<MergeRow>(
      em,
      `SELECT id, project_id, source_issue_id, fingerprint, aliases, source, target_first_seen, target_last_seen,
              activity_ids, comment_ids
         FROM issue_merges WHERE target_issue_id = $1 ORDER BY merged_at, id`,
      [target.id],
    );
    if (merges.length === 0) {
      const [aliased] = await queryRows<{ n: string }>(
        em,
        'SELECT count(*) AS n FROM issue_aliases WHERE issue_id = $1',
        [target.id],
      );
      if (Number(aliased.n) > 0) {
        throw new AppError(
          'CONFLICT',
          'This issue was merged before merges were recorded for unmerging: its events do not say which issue ' +
            'they came from, so it cannot be split. Issues merged from now on can be.',
        );
      }
      throw new AppError('BAD_USER_INPUT', 'id: this issue is not a merge of other issues');
    }
    const restored: string[] = [];
    for (const m of merges) restored.push(await restoreSource(em, target.id, m));
    await recountTarget(em, target.id, restored, merges[0]);
    await em.query('DELETE FROM issue_merges WHERE id = ANY($1::uuid[])', [merges.map((m) => m.id)]);
    await refreshDiscardKeys(em, [target.id, ...restored]);
    await recordUnmerged(em, {
      targetId: target.id,
      projectId: target.project_id,
      merges,
      actorId: caller.userId,
      now,
    });
    return [target.id, ...restored];
  });
  const issues = await ds.manager.findBy(
    Issue,
    ids.map((i) => ({ id: i })),
  );
  const order = new Map(ids.map((i, n) => [i, n]));
  return issues.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/** UNMERGED on the target and on each issue that came back (the timeline, core/src/activity). */
async function recordUnmerged(
  em: EntityManager,
  u: { targetId: string; projectId: string; merges: MergeRow[]; actorId: string; now: Date },
): Promise<void> {
  const counts = await queryRows<{ id: string; title: string; event_count: string }>(
    em,
    'SELECT id, title, event_count FROM issues WHERE id = ANY($1::uuid[])',
    [[u.targetId, ...u.merges.map((m) => m.source_issue_id)]],
  );
  const byId = new Map(counts.map((c) => [c.id, c]));
  const target = byId.get(u.targetId)!;
  const restored = u.merges.map((m) => byId.get(m.source_issue_id)!);
  const names = restored.map((r) => `${r.title.slice(0, 200)} (${Number(r.event_count)} events)`).join(', ');
  await recordIssueActivities(em, [
    {
      issueId: u.targetId,
      projectId: u.projectId,
      kind: 'UNMERGED',
      actorId: u.actorId,
      message: `Unmerged ${names} from this issue`,
      data: { restored: restored.map((r) => ({ id: r.id, title: r.title, eventCount: Number(r.event_count) })) },
      at: u.now,
    },
    ...restored.map((r) => ({
      issueId: r.id,
      projectId: u.projectId,
      kind: 'UNMERGED' as const,
      actorId: u.actorId,
      message: `Unmerged from ${target.title.slice(0, 200)}`,
      data: { targetId: u.targetId, targetTitle: target.title },
      at: u.now,
    })),
  ]);
}

/** Recreates one merge's source from its snapshot and moves its events back; answers its id. */
async function restoreSource(em: EntityManager, targetId: string, m: MergeRow): Promise<string> {
  const s = m.source_issue_id;
  const taken = await queryRows<{ id: string }>(
    em,
    'SELECT id FROM issues WHERE id = $1 OR (project_id = $2 AND fingerprint = $3)',
    [s, m.project_id, m.fingerprint],
  );
  if (taken.length > 0) {
    // Only the rare race of decision 009 (an event re-created the source while it was merged).
    throw new AppError(
      'CONFLICT',
      `Another issue (${taken[0].id}) now has the grouping key of an issue merged into this one: merge it into this one first`,
    );
  }
  await em.query('INSERT INTO issues SELECT * FROM jsonb_populate_record(NULL::issues, $1::jsonb)', [
    JSON.stringify(await withLiveReferences(em, m.source)),
  ]);
  const keys = [m.fingerprint, ...m.aliases];
  await em.query('DELETE FROM issue_aliases WHERE project_id = $1 AND fingerprint = $2', [m.project_id, m.fingerprint]);
  await em.query(
    'UPDATE issue_aliases SET issue_id = $1 WHERE project_id = $2 AND fingerprint = ANY($3::text[]) AND issue_id = $4',
    [s, m.project_id, m.aliases, targetId],
  );
  await em.query('UPDATE events SET issue_id = $1 WHERE issue_id = $2 AND grouping_key = ANY($3::text[])', [
    s,
    targetId,
    keys,
  ]);
  // Its own timeline and comments, as the merge moved them (the MERGED row stays with the target).
  await em.query('UPDATE issue_activity SET issue_id = $1 WHERE id = ANY($2::uuid[]) AND issue_id = $3', [
    s,
    m.activity_ids,
    targetId,
  ]);
  await em.query('UPDATE issue_comments SET issue_id = $1 WHERE id = ANY($2::uuid[]) AND issue_id = $3', [
    s,
    m.comment_ids,
    targetId,
  ]);
  await em.query(
    `UPDATE feedback f SET issue_id = e.issue_id FROM events e
      WHERE f.issue_id = $2 AND e.project_id = f.project_id AND e.event_id = f.event_id AND e.issue_id = $1`,
    [s, targetId],
  );
  await em.query(
    `INSERT INTO issue_users (issue_id, user_key)
     SELECT DISTINCT $1::uuid, k.user_key FROM (SELECT ${USER_KEY_SQL} AS user_key FROM events e WHERE e.issue_id = $1) k
      WHERE k.user_key IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [s],
  );
  await em.query(
    `INSERT INTO issue_releases (issue_id, environment, release, first_seen, last_seen, event_count)
     SELECT $1, environment, release, min(timestamp), max(timestamp), count(*) FROM events
      WHERE issue_id = $1 AND release IS NOT NULL GROUP BY environment, release`,
    [s],
  );
  await em.query(
    `INSERT INTO issue_environments (issue_id, project_id, environment, first_seen, last_seen, event_count)
     SELECT $1, project_id, environment, min(timestamp), max(timestamp), count(*) FROM events
      WHERE issue_id = $1 GROUP BY project_id, environment`,
    [s],
  );
  // What the search language probes (`browser.name:Chrome`, `user.email:`), from its events,
  // as the migration that made the table backfilled it.
  await em.query(
    `INSERT INTO issue_tag_values (issue_id, project_id, key, value)
     SELECT $1, project_id, t.key, t.value FROM events e, jsonb_each_text(e.tags) t WHERE e.issue_id = $1
     UNION
     SELECT $1, project_id, 'user.id', "user" ->> 'id' FROM events
      WHERE issue_id = $1 AND jsonb_typeof("user") = 'object' AND coalesce("user" ->> 'id', '') <> ''
     UNION
     SELECT $1, project_id, 'user.email', lower(trim("user" ->> 'email')) FROM events
      WHERE issue_id = $1 AND jsonb_typeof("user") = 'object' AND coalesce(trim("user" ->> 'email'), '') <> ''
     ON CONFLICT DO NOTHING`,
    [s],
  );
  // The snapshot's counters are a floor: retention may have purged events that they counted.
  await em.query(
    `UPDATE issues i SET
       event_count = greatest(c.events, (i.event_count)),
       user_count = greatest((SELECT count(*) FROM issue_users u WHERE u.issue_id = i.id), i.user_count),
       first_seen = least(coalesce(c.first, i.first_seen), i.first_seen),
       last_seen = greatest(coalesce(c.last, i.last_seen), i.last_seen)
     FROM (SELECT count(*) AS events, min(timestamp) AS first, max(timestamp) AS last FROM events WHERE issue_id = $1) c
     WHERE i.id = $1`,
    [s],
  );
  return s;
}

/**
 * The snapshot with references to rows deleted since the merge cleared, as their foreign keys
 * (`ON DELETE SET NULL`) would have cleared them on the live row.
 */
async function withLiveReferences(
  em: EntityManager,
  source: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const row = { ...source };
  for (const [column, table] of [
    ['resolved_in_release_id', 'releases'],
    ['assignee_id', 'users'],
  ] as const) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    const found = await queryRows<{ id: string }>(em, `SELECT id FROM ${table} WHERE id = $1`, [value]);
    if (found.length === 0) row[column] = null;
  }
  return row;
}

/**
 * The target after its sources left: counters from what it still holds, its own first/last
 * seen before its first merge as bounds, and its release and environment rows less what moved.
 */
async function recountTarget(
  em: EntityManager,
  targetId: string,
  restored: string[],
  firstMerge: MergeRow,
): Promise<void> {
  for (const table of ['issue_releases', 'issue_environments'] as const) {
    const group = table === 'issue_releases' ? ['environment', 'release'] : ['environment'];
    const on = group.map((c) => `r.${c} = d.${c}`).join(' AND ');
    const cols = group.join(', ');
    const onlyReleases = table === 'issue_releases' ? 'AND release IS NOT NULL' : '';
    await em.query(
      `UPDATE ${table} r SET event_count = r.event_count - d.n
         FROM (SELECT ${cols}, count(*) AS n FROM events WHERE issue_id = ANY($2::uuid[]) ${onlyReleases} GROUP BY ${cols}) d
        WHERE r.issue_id = $1 AND ${on}`,
      [targetId, restored],
    );
    await em.query(`DELETE FROM ${table} WHERE issue_id = $1 AND event_count <= 0`, [targetId]);
    await em.query(
      `UPDATE ${table} r SET first_seen = d.first, last_seen = d.last
         FROM (SELECT ${cols}, min(timestamp) AS first, max(timestamp) AS last FROM events WHERE issue_id = $1 ${onlyReleases}
               GROUP BY ${cols}) d
        WHERE r.issue_id = $1 AND ${on}`,
      [targetId],
    );
  }
  // Users seen only in events that left, and not in any the target keeps.
  await em.query(
    `DELETE FROM issue_users u
      WHERE u.issue_id = $1
        AND u.user_key IN (SELECT user_key FROM issue_users WHERE issue_id = ANY($2::uuid[]))
        AND u.user_key NOT IN (SELECT k.user_key FROM (SELECT ${USER_KEY_SQL} AS user_key FROM events e WHERE e.issue_id = $1) k
                                WHERE k.user_key IS NOT NULL)`,
    [targetId, restored],
  );
  // Tag values that came with the sources and that none of the target's own events carries.
  await em.query(
    `DELETE FROM issue_tag_values v
      WHERE v.issue_id = $1
        AND (v.key, v.value) IN (SELECT key, value FROM issue_tag_values WHERE issue_id = ANY($2::uuid[]))
        AND NOT EXISTS (
          SELECT 1 FROM events e
           WHERE e.issue_id = $1
             AND CASE v.key
                   WHEN 'user.id' THEN jsonb_typeof(e."user") = 'object' AND e."user" ->> 'id' = v.value
                   WHEN 'user.email' THEN jsonb_typeof(e."user") = 'object' AND lower(trim(e."user" ->> 'email')) = v.value
                   ELSE e.tags ->> v.key = v.value
                 END)`,
    [targetId, restored],
  );
  await em.query(
    `UPDATE issues i SET
       event_count = greatest(c.events, i.event_count - (SELECT coalesce(sum(event_count), 0) FROM issues WHERE id = ANY($2::uuid[]))),
       user_count = (SELECT count(*) FROM issue_users u WHERE u.issue_id = i.id),
       first_seen = least(coalesce(c.first, $3::timestamptz), $3::timestamptz),
       last_seen = greatest(coalesce(c.last, $4::timestamptz), $4::timestamptz)
     FROM (SELECT count(*) AS events, min(timestamp) AS first, max(timestamp) AS last FROM events WHERE issue_id = $1) c
     WHERE i.id = $1`,
    [
      targetId,
      restored,
      new Date(firstMerge.target_first_seen).toISOString(),
      new Date(firstMerge.target_last_seen).toISOString(),
    ],
  );
}

/** Discard keys follow the issues again: each discarded one owns its key and aliases. */
async function refreshDiscardKeys(em: EntityManager, issueIds: string[]): Promise<void> {
  await em.query('DELETE FROM issue_discard_keys WHERE issue_id = ANY($1::uuid[])', [issueIds]);
  await em.query(
    `INSERT INTO issue_discard_keys (project_id, grouping_key, issue_id)
     SELECT i.project_id, i.fingerprint, i.id FROM issues i WHERE i.id = ANY($1::uuid[]) AND i.discarded_at IS NOT NULL
     UNION
     SELECT a.project_id, a.fingerprint, a.issue_id FROM issue_aliases a JOIN issues i ON i.id = a.issue_id
      WHERE i.id = ANY($1::uuid[]) AND i.discarded_at IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [issueIds],
  );
}
