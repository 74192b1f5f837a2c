import type { DataSource } from 'typeorm';
import { queryRows } from '../db/query-rows';
import { computeCulprit, computeGroupingKey } from '../grouping';
import { loadSourceMap } from '../releases/source-maps';
import { DEBUG_ID_RELEASE, Symbolicator } from '../symbolication';
import { findDebugIdMapTimes, loadSourceMapByDebugId } from '../artifacts/debug-id-maps';
import { createDebugIdLookup } from './debug-images';
import { groupAcrossMaps } from './group-across-maps';
import type { StackFrame } from '../stacktrace/stack-frame';
import type { PreparedEvent } from './prepare-event';

/**
 * The worker's symbolication step: a `Symbolicator` whose maps come from `source_maps`, kept
 * fresh across processes. Once per batch it reads the upload times of the maps of the
 * releases in the batch (no map bodies: one index scan) and drops cached entries that changed,
 * so a map uploaded or replaced by an ingest process is used from the next batch on.
 */
export class EventSymbolicator {
  private readonly symbolicator: Symbolicator;
  /** `project\0release\0filename` → upload time last seen. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ds: DataSource,
    options: { maxCacheBytes: number },
  ) {
    this.symbolicator = new Symbolicator({
      maxCacheBytes: options.maxCacheBytes,
      // By debug ID (decision 044) or by release and file name.
      loadMap: (key) =>
        key.release === DEBUG_ID_RELEASE
          ? loadSourceMapByDebugId(ds, key.projectId, key.filename)
          : loadSourceMap(ds, key),
    });
  }

  /**
   * De-minifies the frames of the events that have a release with maps, in place, and groups
   * them again on the original frames: the same bug in two builds is then one issue. Minified
   * events without maps join their bug's issue through a grouping hint (group-across-maps.ts).
   */
  async apply(events: PreparedEvent[]): Promise<void> {
    const candidates = events.filter(
      (e) =>
        (e.release !== null || e.debugImages !== null) &&
        (e.frames.length > 0 || (e.causes?.some((c) => c.frames.length > 0) ?? false)),
    );
    if (candidates.length === 0) return;
    const withRelease = candidates.filter((e) => e.release !== null);
    const hasMaps = await this.refreshReleases(withRelease);
    const byDebugId = await this.refreshDebugIds(candidates);
    for (const e of candidates) {
      const images = (e.debugImages ?? []).filter((i) => byDebugId.has(`${e.projectId}\u0000${i.debugId}`));
      const releaseMaps = e.release !== null && hasMaps.has(`${e.projectId}\u0000${e.release}`);
      if (images.length === 0 && !releaseMaps) continue;
      const debugIdOf = images.length > 0 ? createDebugIdLookup(images) : undefined;
      const release = releaseMaps ? e.release : null;
      // Causes are de-minified too, for display; grouping reads the thrown error's frames only.
      if (e.causes) {
        for (const c of e.causes) {
          if (c.frames.length === 0) continue;
          const mapped = await this.symbolicator.symbolicate(e.projectId, release, c.frames, debugIdOf);
          if (mapped.some((f) => f.minified)) c.frames = withVars(mapped, c.frames);
        }
      }
      if (e.frames.length === 0) continue;
      const frames = withVars(await this.symbolicator.symbolicate(e.projectId, release, e.frames, debugIdOf), e.frames);
      if (!frames.some((f) => f.minified)) continue;
      e.frames = frames;
      e.groupingKey = computeGroupingKey({
        type: e.type,
        message: e.message,
        frames,
        fingerprint: e.fingerprint ?? undefined,
      });
      e.culprit = computeCulprit(frames);
    }
    await groupAcrossMaps(this.ds, withRelease, hasMaps);
  }

  /**
   * The releases of the batch that have maps; cached maps uploaded or replaced since they were
   * read are forgotten (one index scan, no map bodies).
   */
  private async refreshReleases(events: PreparedEvent[]): Promise<Set<string>> {
    const hasMaps = new Set<string>();
    if (events.length === 0) return hasMaps;
    const pairs = new Map<string, { projectId: string; release: string }>();
    for (const e of events)
      pairs.set(`${e.projectId}\u0000${e.release}`, { projectId: e.projectId, release: e.release! });
    const maps = await queryRows<{ project_id: string; release: string; filename: string; uploaded_at: Date }>(
      this.ds,
      `SELECT m.project_id, m.release, m.filename, m.uploaded_at
         FROM source_maps m JOIN unnest($1::uuid[], $2::text[]) AS k(project_id, release)
           ON m.project_id = k.project_id AND m.release = k.release`,
      [[...pairs.values()].map((p) => p.projectId), [...pairs.values()].map((p) => p.release)],
    );
    for (const m of maps) {
      hasMaps.add(`${m.project_id}\u0000${m.release}`);
      const key = `${m.project_id}\u0000${m.release}\u0000${m.filename}`;
      const at = new Date(m.uploaded_at).getTime();
      const before = this.seen.get(key);
      if (before !== at) {
        // New or replaced: forget the parsed map and any remembered "no map" for the release.
        if (before === undefined) this.symbolicator.invalidate(m.project_id, m.release);
        else this.symbolicator.invalidate(m.project_id, m.release, m.filename);
        this.seen.set(key, at);
      }
    }
    return hasMaps;
  }

  /**
   * The (project, debug ID) pairs of the batch that have a map, as `project\0id`. A map uploaded
   * after an event of its bundle is used from the next batch on, as release maps are: the IDs
   * without a map are not passed to the symbolicator, so nothing remembers their absence.
   */
  private async refreshDebugIds(events: PreparedEvent[]): Promise<Set<string>> {
    const pairs = new Map<string, { projectId: string; debugId: string }>();
    for (const e of events)
      for (const i of e.debugImages ?? [])
        pairs.set(`${e.projectId}\u0000${i.debugId}`, { projectId: e.projectId, debugId: i.debugId });
    const found = new Set<string>();
    if (pairs.size === 0) return found;
    for (const m of await findDebugIdMapTimes(this.ds, [...pairs.values()])) {
      const key = `${m.projectId}\u0000${m.debugId}`;
      found.add(key);
      const seenKey = `${m.projectId}\u0000${DEBUG_ID_RELEASE}\u0000${m.debugId}`;
      if (this.seen.get(seenKey) !== m.uploadedAt) {
        this.symbolicator.invalidate(m.projectId, DEBUG_ID_RELEASE, m.debugId);
        this.seen.set(seenKey, m.uploadedAt);
      }
    }
    return found;
  }
}

/** A de-minified frame is a new object: the local variables the SDK sent stay with it. */
function withVars<F extends StackFrame>(mapped: F[], sent: StackFrame[]): F[] {
  for (let i = 0; i < mapped.length; i++) {
    const vars = sent[i]?.vars;
    if (vars !== undefined && mapped[i] !== sent[i]) mapped[i] = { ...mapped[i], vars };
  }
  return mapped;
}
