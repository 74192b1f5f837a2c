import type { DataSource, EntityManager } from 'typeorm';
import { Issue } from '../entities';
import { AppError } from '../errors';
import { lockIssuesForCaller, type Caller } from '../access';
import { recordIssueActivity } from '../activity/record-activity';

/**
 * Merges `sourceId` into `targetId` (same project), in one transaction:
 * - the source's events, distinct users, releases, environments, regressions, feedback and alert
 *   deliveries move to the target; the target's counters are recomputed from what it now holds;
 * - the source's grouping key (and any key that was merged into the source before) becomes an
 *   alias of the target in `issue_aliases`, which the worker's issue upsert consults: later
 *   events of that key join the target instead of re-creating the source;
 * - the source issue is deleted. The target keeps its own lifecycle state, title and level.
 *
 * Chosen over keeping the source as a hidden "merged" row: every issue query would then need
 * to filter it out, and the worker would still need a redirect. Undone by `unmergeIssue`: the
 * merge is recorded in `issue_merges` (the source's row as it was, its key and the aliases it
 * carried), and every event keeps its own grouping key (`events.grouping_key`; the source's
 * events stored before that column existed get the source's key here, before they move).
 * The caller sees NOT_FOUND for an issue of another organization, as for a missing one.
 * Named ids: two issue ids in a row could be swapped silently.
 */
export async function mergeIssues(
  ds: DataSource,
  { caller, targetId, sourceId, now = new Date() }: { caller: Caller; targetId: string; sourceId: string; now?: Date },
): Promise<Issue> {
  if (targetId === sourceId) throw new AppError('BAD_USER_INPUT', 'sourceId: must differ from targetId');
  const merged = await ds.transaction(async (em) => {
    const locked = await lockIssuesForCaller(em, caller, [targetId, sourceId], 'write', 'merge issues');
    const target = locked.find((i) => i.id === targetId);
    const source = locked.find((i) => i.id === sourceId);
    if (!target || !source) throw new AppError('NOT_FOUND', 'Issue not found');
    if (target.project_id !== source.project_id) {
      throw new AppError('BAD_USER_INPUT', 'sourceId: must be an issue of the same project as targetId');
    }
    const t = target.id;
    const s = source.id;
    await recordMerge(em, { targetId: t, sourceId: s, actorId: caller.userId, now });
    await em.query('UPDATE events SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    await em.query(
      `INSERT INTO issue_users (issue_id, user_key) SELECT $1, user_key FROM issue_users WHERE issue_id = $2
       ON CONFLICT DO NOTHING`,
      [t, s],
    );
    await em.query(
      `INSERT INTO issue_releases (issue_id, environment, release, first_seen, last_seen, event_count)
       SELECT $1, environment, release, first_seen, last_seen, event_count FROM issue_releases WHERE issue_id = $2
       ON CONFLICT (issue_id, environment, release) DO UPDATE SET
         first_seen = least(issue_releases.first_seen, excluded.first_seen),
         last_seen = greatest(issue_releases.last_seen, excluded.last_seen),
         event_count = issue_releases.event_count + excluded.event_count`,
      [t, s],
    );
    await em.query(
      `INSERT INTO issue_environments (issue_id, project_id, environment, first_seen, last_seen, event_count)
       SELECT $1, project_id, environment, first_seen, last_seen, event_count FROM issue_environments WHERE issue_id = $2
       ON CONFLICT (issue_id, environment) DO UPDATE SET
         first_seen = least(issue_environments.first_seen, excluded.first_seen),
         last_seen = greatest(issue_environments.last_seen, excluded.last_seen),
         event_count = issue_environments.event_count + excluded.event_count`,
      [t, s],
    );
    await em.query('UPDATE feedback SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    await em.query('UPDATE issue_regressions SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    // The alert delivery log stays (its payloads are snapshots of the source at the time).
    await em.query('UPDATE alert_deliveries SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    await em.query('UPDATE issue_aliases SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    // The source's timeline and comments join the target's (interleaved by time), then the merge itself.
    await em.query('UPDATE issue_comments SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    await em.query('UPDATE issue_activity SET issue_id = $1 WHERE issue_id = $2', [t, s]);
    const [src] = await em.query('SELECT title, event_count FROM issues WHERE id = $1', [s]);
    await recordIssueActivity(em, {
      issueId: t,
      projectId: target.project_id,
      kind: 'MERGED',
      actorId: caller.userId,
      message: `Merged ${String(src.title).slice(0, 200)} (${Number(src.event_count)} ${Number(src.event_count) === 1 ? 'event' : 'events'}) into this issue`,
      data: { sourceId: s, sourceFingerprint: source.fingerprint, sourceTitle: src.title, sourceEventCount: Number(src.event_count) },
      at: now,
    });
    await em.query(
      `INSERT INTO issue_aliases (project_id, fingerprint, issue_id) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, fingerprint) DO UPDATE SET issue_id = excluded.issue_id`,
      [source.project_id, source.fingerprint, t],
    );
    // Counters from what the target now holds; first/last seen from both issues when the
    // events are gone (retention) and only the counters remember them.
    await em.query(
      `UPDATE issues i SET
         event_count = (SELECT count(*) FROM events WHERE issue_id = i.id),
         user_count = (SELECT count(*) FROM issue_users WHERE issue_id = i.id),
         first_seen = least(i.first_seen, s.first_seen),
         last_seen = greatest(i.last_seen, s.last_seen)
       FROM issues s WHERE i.id = $1 AND s.id = $2`,
      [t, s],
    );
    await em.query('DELETE FROM issues WHERE id = $1', [s]);
    // A discarded target discards what it took in; a discarded source's keys went with it.
    await em.query(
      `INSERT INTO issue_discard_keys (project_id, grouping_key, issue_id)
       SELECT a.project_id, a.fingerprint, a.issue_id FROM issue_aliases a JOIN issues i ON i.id = a.issue_id
        WHERE a.issue_id = $1 AND i.discarded_at IS NOT NULL
       ON CONFLICT (project_id, grouping_key) DO UPDATE SET issue_id = excluded.issue_id`,
      [t],
    );
    return t;
  });
  return (await ds.manager.findOneBy(Issue, { id: merged }))!;
}

/**
 * What `unmergeIssue` needs to split the merge again: the source's row as it is now (a JSON
 * snapshot of every column, so columns added later come back too), its own key, the keys
 * merged into it before (its aliases), and the target's first/last seen before its first merge.
 * The source's events from before `events.grouping_key` existed are stamped with its key.
 */
async function recordMerge(
  em: EntityManager,
  m: { targetId: string; sourceId: string; actorId: string; now: Date },
): Promise<void> {
  await em.query(
    `UPDATE events SET grouping_key = i.fingerprint FROM issues i
      WHERE i.id = $1 AND events.issue_id = $1 AND events.grouping_key IS NULL`,
    [m.sourceId],
  );
  await em.query(
    `INSERT INTO issue_merges (project_id, target_issue_id, source_issue_id, fingerprint, aliases, source,
                               target_first_seen, target_last_seen, merged_at, merged_by, activity_ids, comment_ids)
     SELECT s.project_id, t.id, s.id, s.fingerprint,
            coalesce((SELECT array_agg(a.fingerprint ORDER BY a.fingerprint) FROM issue_aliases a WHERE a.issue_id = s.id), '{}'),
            to_jsonb(s.*), t.first_seen, t.last_seen, $3, $4,
            coalesce((SELECT array_agg(x.id) FROM issue_activity x WHERE x.issue_id = s.id), '{}'),
            coalesce((SELECT array_agg(c.id) FROM issue_comments c WHERE c.issue_id = s.id), '{}')
       FROM issues s, issues t WHERE s.id = $1 AND t.id = $2`,
    [m.sourceId, m.targetId, m.now.toISOString(), m.actorId],
  );
}
