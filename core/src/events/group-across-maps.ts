import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { normalizeFilename, normalizeMessage } from '../grouping';
import { hashParts } from '../grouping/fingerprint';
import type { SymbolicatedFrame } from '../symbolication';
import type { StackFrame } from '../stacktrace/stack-frame';
import type { PreparedEvent } from './prepare-event';

/**
 * One bug, one issue, whether or not its release's maps were uploaded (decision 042).
 *
 * A minified event is grouped on minified frames, a de-minified one on original frames: two keys
 * for one bug. Both kinds can compute a third key, the *hint key*: the error's type, its message
 * as grouping normalizes it, and the bundle file it was thrown from. The first event of an error
 * writes under that key the grouping key its issue uses (`grouping_hints`), and later events of
 * either kind follow it:
 * - a minified event whose release has no map for its file takes the hinted key; with no hint, it
 *   writes its hint key as its own grouping key (its issue is then keyed by the hint);
 * - a de-minified event keeps its own key when that key already has an issue or is the hint, and
 *   otherwise joins the hinted issue: the first de-minified event of a bug whose minified events
 *   came first lands beside them.
 *
 * The hint cannot tell two bugs apart that throw the same message from the same bundle while their
 * maps are missing; the frames that would tell them apart are the minified ones. Events with
 * their own fingerprint are never regrouped.
 */
export async function groupAcrossMaps(ds: DataSource, events: PreparedEvent[], withMaps: Set<string>): Promise<void> {
  const candidates: Array<{ event: PreparedEvent; hintKey: string; deminified: boolean }> = [];
  for (const event of events) {
    if (event.release === null || event.fingerprint !== null || event.frames.length === 0) continue;
    const frames = event.frames as SymbolicatedFrame[];
    const mapped = frames.find((f) => f.minified !== undefined);
    if (mapped) {
      candidates.push({ event, hintKey: hintKeyOf(event, mapped.minified!.filename), deminified: true });
      continue;
    }
    const missing = minifiedFiles(frames);
    if (missing.length === 0) continue;
    candidates.push({ event, hintKey: hintKeyOf(event, missing[0].filename), deminified: false });
    noteMissingMaps(event, withMaps.has(`${event.projectId}\u0000${event.release}`), missing);
  }
  if (candidates.length === 0) return;

  const hints = await claimHints(
    ds,
    candidates.map((c) => ({ projectId: c.event.projectId, hintKey: c.hintKey, groupingKey: c.event.groupingKey })),
  );
  // A de-minified event whose own key differs from the hint keeps it only if an issue has it.
  const contested = candidates.filter(
    (c) => c.deminified && hints.get(pairKey(c.event.projectId, c.hintKey)) !== c.event.groupingKey,
  );
  const owned =
    contested.length === 0
      ? new Set<string>()
      : await keysWithIssues(
          ds,
          contested.map((c) => c.event),
        );
  for (const c of candidates) {
    const hinted = hints.get(pairKey(c.event.projectId, c.hintKey));
    if (hinted === undefined || hinted === c.event.groupingKey) continue;
    if (c.deminified && owned.has(pairKey(c.event.projectId, c.event.groupingKey))) continue;
    c.event.groupingKey = hinted;
  }
}

/**
 * In-app frames of JavaScript files that look minified, one per file, in stack order (a file by
 * its first frame: a bundle's throwing frame may sit at a low column). A file looks minified when
 * it is named `.min.`, when one of its frames sits at column 300 or past it (hand-written code does
 * not reach it, a bundler's one-line output does), or when two of its frames carry the one- or
 * two-letter names a minifier gives (`u`, `Object.r`). A file that looks minified by mistake costs
 * coarser grouping (type, message and file) while it has no map, and a note on the issue page.
 */
export function minifiedFiles(frames: StackFrame[]): StackFrame[] {
  const shortNames = new Map<string, number>();
  const files = new Set<string>();
  for (const frame of frames) {
    if (!frame.inApp) continue;
    const path = frame.filename.replace(/[?#].*$/s, '');
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (!/\.[cm]?js$/i.test(base)) continue;
    if (base.includes('.min.') || (frame.colno ?? 0) >= 300) files.add(frame.filename);
    if (frame.function !== null && MINIFIED_NAME.test(frame.function)) {
      const seen = (shortNames.get(frame.filename) ?? 0) + 1;
      shortNames.set(frame.filename, seen);
      if (seen >= 2) files.add(frame.filename);
    }
  }
  const taken = new Set<string>();
  return frames.filter((f) => files.has(f.filename) && !taken.has(f.filename) && taken.add(f.filename));
}

/** `u`, `Object.r`, `HTMLButtonElement.t`, `async e`, `new n`, `Object.o [as save]`: a minifier's name. */
const MINIFIED_NAME = /^(?:async |new )?(?:[\w$]+\.)*[A-Za-z_$][\w$]?(?: \[as [^\]]+\])?$/;

function hintKeyOf(event: PreparedEvent, bundleFile: string): string {
  const file = normalizeFilename(bundleFile);
  return hashParts(['unmapped', event.type, normalizeMessage(event.message), file.slice(file.lastIndexOf('/') + 1)]);
}

/**
 * What the issue page tells the user (docs/releases-and-lifecycle.md, "Missing source maps"): the
 * release and the bundle files it has no map for. Kept with the event's other notes in
 * `context._meta`, where the edge already records what it changed.
 */
function noteMissingMaps(event: PreparedEvent, releaseHasMaps: boolean, missing: StackFrame[]): void {
  const files = [...new Set(missing.map((f) => f.filename.replace(/[?#].*$/s, '')))].slice(0, 20);
  const context = event.context ?? {};
  const meta = (context._meta as Record<string, unknown> | undefined) ?? {};
  event.context = {
    ...context,
    _meta: { ...meta, sourceMaps: { release: event.release, releaseHasMaps, missing: files } },
  };
}

/**
 * Writes each hint that does not exist yet (the first writer wins, across workers) and returns
 * every hint of the batch. A hint written by another worker after this statement's snapshot is
 * not in its answer: it is read again once.
 */
async function claimHints(
  ds: DataSource,
  proposals: Array<{ projectId: string; hintKey: string; groupingKey: string }>,
): Promise<Map<string, string>> {
  const unique = new Map<string, (typeof proposals)[number]>();
  for (const p of proposals)
    if (!unique.has(pairKey(p.projectId, p.hintKey))) unique.set(pairKey(p.projectId, p.hintKey), p);
  const list = [...unique.values()];
  const params = [list.map((p) => p.projectId), list.map((p) => p.hintKey), list.map((p) => p.groupingKey)];
  const rows = await queryRows<{ project_id: string; hint_key: string; grouping_key: string }>(
    ds,
    `WITH input AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(project_id, hint_key, grouping_key)),
     written AS (
       INSERT INTO grouping_hints (project_id, hint_key, grouping_key)
       SELECT project_id, hint_key, grouping_key FROM input
       ON CONFLICT (project_id, hint_key) DO NOTHING
       RETURNING project_id, hint_key, grouping_key)
     SELECT project_id, hint_key, grouping_key FROM written
     UNION ALL
     SELECT h.project_id, h.hint_key, h.grouping_key
       FROM grouping_hints h JOIN input i ON h.project_id = i.project_id AND h.hint_key = i.hint_key`,
    params,
  );
  const hints = new Map(rows.map((r) => [pairKey(r.project_id, r.hint_key), r.grouping_key]));
  const late = list.filter((p) => !hints.has(pairKey(p.projectId, p.hintKey)));
  if (late.length > 0) {
    const again = await queryRows<{ project_id: string; hint_key: string; grouping_key: string }>(
      ds,
      `SELECT h.project_id, h.hint_key, h.grouping_key
         FROM grouping_hints h JOIN unnest($1::uuid[], $2::text[]) AS i(project_id, hint_key)
           ON h.project_id = i.project_id AND h.hint_key = i.hint_key`,
      [late.map((p) => p.projectId), late.map((p) => p.hintKey)],
    );
    for (const r of again) hints.set(pairKey(r.project_id, r.hint_key), r.grouping_key);
  }
  return hints;
}

/** The events' grouping keys that an issue has, as its own key or through a merge. */
async function keysWithIssues(ds: DataSource, events: PreparedEvent[]): Promise<Set<string>> {
  const rows = await queryRows<{ project_id: string; fingerprint: string }>(
    ds,
    `WITH k AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS t(project_id, fingerprint))
     SELECT i.project_id, i.fingerprint FROM issues i JOIN k ON i.project_id = k.project_id AND i.fingerprint = k.fingerprint
     UNION ALL
     SELECT a.project_id, a.fingerprint FROM issue_aliases a JOIN k ON a.project_id = k.project_id AND a.fingerprint = k.fingerprint`,
    [events.map((e) => e.projectId), events.map((e) => e.groupingKey)],
  );
  return new Set(rows.map((r) => pairKey(r.project_id, r.fingerprint)));
}

function pairKey(projectId: string, key: string): string {
  return `${projectId}\u0000${key}`;
}
