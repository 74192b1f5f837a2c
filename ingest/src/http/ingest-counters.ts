import type { InboundFilterName } from '@tracker/core';

/**
 * What the ingest edge refused, by the wire contract's error code (`RATE_LIMITED`,
 * `QUOTA_EXCEEDED`, `BAD_USER_INPUT`, `PAYLOAD_TOO_LARGE`, `UNAVAILABLE`, …), for `GET /metrics`.
 * Counted per process, as Prometheus expects of a counter; only refusals are counted, so the
 * 202 path pays nothing.
 */
export class IngestCounters {
  readonly refused = new Map<string, number>();
  /**
   * Events answered 202 but dropped on purpose, by reason (`discarded_issue`: the project
   * discards the issue they group into). Not refusals: the client did nothing wrong.
   */
  readonly discarded = new Map<string, number>();

  /**
   * Sentry envelope items accepted (the envelope answered 200) and dropped, by item type
   * (`tracker_sentry_items_dropped_total{type}`, decision 046). Types outside
   * SENTRY_ITEM_TYPES count as `other`: the type is the client's text, the label set stays bounded.
   */
  readonly sentryItemsDropped = new Map<string, number>();

  /**
   * OTLP spans accepted and dropped because they carry no exception event
   * (`tracker_otlp_spans_dropped_total`): Tracker stores no traces (decision 050).
   */
  otlpSpansDropped = 0;

  dropSentryItem(type: string): void {
    const label = SENTRY_ITEM_TYPES.has(type) ? type : 'other';
    this.sentryItemsDropped.set(label, (this.sentryItemsDropped.get(label) ?? 0) + 1);
  }

  refuse(code: string): void {
    this.refused.set(code, (this.refused.get(code) ?? 0) + 1);
  }

  discard(reason: string): void {
    this.discarded.set(reason, (this.discarded.get(reason) ?? 0) + 1);
  }

  /**
   * Drops by a project's inbound filter since the last `takeFiltered`, by project and filter
   * (issue 31): summed here and queued now and then (filter-counts.ts), so the settings page
   * can show them; also counted for `/metrics` as `discarded` with reason `inbound_filter_<name>`.
   */
  private readonly filteredByProject = new Map<string, Map<InboundFilterName, number>>();

  filter(projectId: string, filter: InboundFilterName): void {
    this.discard(`inbound_filter_${filter}`);
    this.addFiltered(projectId, filter, 1);
  }

  /** Counts taken by a flush that could not queue them, back for the next one (not counted again in /metrics). */
  putBackFiltered(counts: ReadonlyArray<{ projectId: string; filter: InboundFilterName; count: number }>): void {
    for (const c of counts) this.addFiltered(c.projectId, c.filter, c.count);
  }

  private addFiltered(projectId: string, filter: InboundFilterName, n: number): void {
    let byFilter = this.filteredByProject.get(projectId);
    if (byFilter === undefined) this.filteredByProject.set(projectId, (byFilter = new Map()));
    byFilter.set(filter, (byFilter.get(filter) ?? 0) + n);
  }

  /** The drops counted since the last call, and forgets them. */
  takeFiltered(): Array<{ projectId: string; filter: InboundFilterName; count: number }> {
    const out: Array<{ projectId: string; filter: InboundFilterName; count: number }> = [];
    for (const [projectId, byFilter] of this.filteredByProject) {
      for (const [filter, count] of byFilter) out.push({ projectId, filter, count });
    }
    this.filteredByProject.clear();
    return out;
  }
}

const ERROR_CODE = /"code"\s*:\s*"([A-Z_]{1,40})"/;

/** The code of a wire error body (`{"error":{"code":…}}`), or the status when there is none. */
export function refusalCode(statusCode: number, payload: unknown): string {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8', 0, 200) : '';
  return ERROR_CODE.exec(text)?.[1] ?? `HTTP_${statusCode}`;
}

/** Sentry's envelope item types (develop.sentry.dev/sdk/envelopes), the labels of dropped items. */
export const SENTRY_ITEM_TYPES: ReadonlySet<string> = new Set([
  'event',
  'transaction',
  'span',
  'otel_span',
  'attachment',
  'session',
  'sessions',
  'client_report',
  'check_in',
  'replay_event',
  'replay_recording',
  'replay_video',
  'profile',
  'profile_chunk',
  'statsd',
  'metric_meta',
  'trace_metric',
  'feedback',
  'user_report',
  'log',
  'otel_log',
  'security',
  'raw_security',
  'nel',
]);
