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

  refuse(code: string): void {
    this.refused.set(code, (this.refused.get(code) ?? 0) + 1);
  }

  discard(reason: string): void {
    this.discarded.set(reason, (this.discarded.get(reason) ?? 0) + 1);
  }
}

const ERROR_CODE = /"code"\s*:\s*"([A-Z_]{1,40})"/;

/** The code of a wire error body (`{"error":{"code":…}}`), or the status when there is none. */
export function refusalCode(statusCode: number, payload: unknown): string {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8', 0, 200) : '';
  return ERROR_CODE.exec(text)?.[1] ?? `HTTP_${statusCode}`;
}
