import type { DataSource } from 'typeorm';

/**
 * How many merges into each issue `unmergeIssue` can undo (recorded merges), by issue id. No
 * access check: the caller passes issues it has already read through access/.
 */
export async function countIssueMerges(ds: DataSource, issueIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(issueIds.map((id) => [id, 0]));
  if (issueIds.length === 0) return counts;
  const rows: Array<{ target_issue_id: string; n: string }> = await ds.query(
    `SELECT target_issue_id, count(*) AS n FROM issue_merges WHERE target_issue_id = ANY($1::uuid[]) GROUP BY target_issue_id`,
    [issueIds],
  );
  for (const r of rows) counts.set(r.target_issue_id, Number(r.n));
  return counts;
}
