import {
  CARD_CANDIDATE,
  CARD_HINT,
  cardOrSame,
  escapeRegExp,
  IP_ANYWHERE,
  IP_NOT_URL_HOST,
  ipOrSame,
  MAX_DEPTH,
} from './patterns';
import { DEFAULT_PRIVACY_SETTINGS, DEFAULT_SENSITIVE_KEYS, FILTERED, type PrivacySettings } from './settings';
import type { BreadcrumbLike, CauseLike, ContextLinesLike, EventLike, FrameLike, LogLike, RequestLike } from './shapes';

/**
 * Removes secrets and personal data from ingest bodies (issue 15 §4), before they are queued.
 * Pure: a body it changes comes back as a copy (only the changed branches are copied), and a body
 * with nothing to scrub comes back as the very same object, so callers detect a change with
 * `!==`. Build one per settings with `scrubberFor`, which caches it.
 *
 * The cost for a typical event is one pass over the keys and string values of `context`, `user`
 * and `tags`: a key is tested against one compiled alternation, a string of 13+ characters
 * against one regular expression whose matches alone get the Luhn check.
 */
export class Scrubber {
  /** False when nothing can ever be scrubbed (every setting off): callers may skip the walk. */
  readonly active: boolean;
  private readonly keys: RegExp | undefined;
  private readonly cards: boolean;
  private readonly ips: boolean;

  constructor(settings: PrivacySettings) {
    const names = [...(settings.scrubDefaults ? DEFAULT_SENSITIVE_KEYS : []), ...settings.sensitiveFields]
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
    this.keys = names.length > 0 ? new RegExp(names.map(escapeRegExp).join('|'), 'i') : undefined;
    this.cards = settings.scrubDefaults;
    this.ips = settings.scrubIpAddresses;
    this.active = this.keys !== undefined || this.cards || this.ips;
  }

  /** Whether values under this key are filtered whole. */
  isSensitiveKey(key: string): boolean {
    return this.keys !== undefined && this.keys.test(key);
  }

  /** `s` with card numbers (and IP addresses, when on) replaced by `[Filtered]`. */
  text(s: string): string {
    return this.scrubText(s, IP_ANYWHERE);
  }

  /**
   * Any JSON value: values under a sensitive key at any depth (objects and arrays included)
   * become `[Filtered]`, and so does the value of a `[name, value]` pair whose name is
   * sensitive (how some SDKs send headers); every string goes through `text`.
   */
  value(v: unknown): unknown {
    return this.walk(v, 0);
  }

  /**
   * An error event: `message`, `context`, `tags` and `user` as `value` does, except `user.id`
   * and `user.email` (how the product counts and shows affected users). `user.ip_address` and
   * `user.ip` are filtered with IP scrubbing on. `stack` has card numbers and IP addresses
   * scrubbed (its first line repeats the message), but not the hosts of URLs in its frames;
   * so have the file and function names of structured `frames`.
   */
  errorEvent<E extends EventLike>(event: E): E {
    if (!this.active) return event;
    let out: E | undefined;
    const set = <K extends keyof E>(k: K, v: E[K]) => {
      if (v !== event[k]) (out ??= { ...event })[k] = v;
    };
    set('message', this.text(event.message));
    if (event.logMessage !== undefined) set('logMessage', this.text(event.logMessage));
    if (event.stack !== undefined) set('stack', this.scrubText(event.stack, IP_NOT_URL_HOST));
    if (event.frames !== undefined) set('frames', this.frames(event.frames) as E['frames']);
    if (event.context !== undefined) set('context', this.walk(event.context, 1) as E['context']);
    if (event.tags !== undefined) set('tags', this.walk(event.tags, 1) as E['tags']);
    if (event.user !== undefined) set('user', this.user(event.user) as E['user']);
    if (event.breadcrumbs !== undefined) set('breadcrumbs', this.list(event.breadcrumbs, this.breadcrumb));
    if (event.causes !== undefined) set('causes', this.list(event.causes, this.cause));
    if (event.contextLines !== undefined) set('contextLines', this.list(event.contextLines, this.contextLines));
    if (event.request !== undefined) set('request', this.request(event.request) as E['request']);
    return out ?? event;
  }

  /**
   * A URL or a query string with the values of sensitive parameters (`?token=…`, `&password=…`,
   * matched like keys) replaced by `[Filtered]`, and card numbers (and IPs, when on) in the rest.
   * The host of a URL is kept, as in stack frames.
   */
  url(s: string): string {
    let out = s;
    if (this.keys !== undefined && out.includes('=')) {
      const keys = this.keys;
      out = out.replace(/([?&;]|^)([^=&;#?]+)=([^&;#]*)/g, (m, sep: string, name: string, value: string) => {
        let decoded = name;
        try {
          decoded = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          // a malformed escape: the name as written is tested
        }
        return value !== '' && keys.test(decoded) ? `${sep}${name}=${FILTERED}` : m;
      });
    }
    return this.scrubText(out, IP_NOT_URL_HOST);
  }

  /** `one` applied to each item; the same array when nothing changed (no copy on the common path). */
  private list<T>(items: T[], one: (item: T) => T): T[] {
    let out: T[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const after = one.call(this, items[i]);
      if (after !== items[i]) (out ??= items.slice())[i] = after;
    }
    return out ?? items;
  }

  /** Its message as text; its data as `context` is, plus the query of URLs under `url`, `to`, `from`. */
  private breadcrumb<B extends BreadcrumbLike>(b: B): B {
    const message = b.message === undefined ? undefined : this.text(b.message);
    let data = b.data === undefined ? undefined : (this.walk(b.data, 1) as Record<string, unknown>);
    if (data !== undefined) {
      for (const key of ['url', 'to', 'from']) {
        const v: unknown = data[key];
        if (typeof v === 'string') {
          const after = this.url(v);
          if (after !== v) data = { ...data, [key]: after };
        }
      }
    }
    if (message === b.message && data === b.data) return b;
    const out = { ...b };
    if (message !== undefined) out.message = message;
    if (data !== undefined) out.data = data;
    return out;
  }

  private cause<C extends CauseLike>(c: C): C {
    const message = this.text(c.message);
    const stack = c.stack === undefined ? undefined : this.scrubText(c.stack, IP_NOT_URL_HOST);
    const frames = c.frames === undefined ? undefined : this.frames(c.frames);
    if (message === c.message && stack === c.stack && frames === c.frames) return c;
    const out = { ...c, message };
    if (stack !== undefined) out.stack = stack;
    if (frames !== undefined) out.frames = frames;
    return out;
  }

  private contextLines<L extends ContextLinesLike>(l: L): L {
    const pre = this.lines(l.preContext);
    const contextLine = this.text(l.contextLine);
    const post = this.lines(l.postContext);
    return pre === l.preContext && contextLine === l.contextLine && post === l.postContext
      ? l
      : { ...l, preContext: pre, contextLine, postContext: post };
  }

  private lines(lines: readonly string[]): string[] {
    return this.list(lines as string[], this.text);
  }

  /** Headers and data as `context` is (so `Cookie`, `Authorization` are filtered); URL and query by `url`. */
  private request(r: RequestLike): RequestLike {
    const url = r.url === undefined ? undefined : this.url(r.url);
    const queryString = r.queryString === undefined ? undefined : this.url(r.queryString);
    const headers = r.headers === undefined ? undefined : (this.walk(r.headers, 1) as Record<string, string>);
    const data = r.data === undefined ? undefined : this.walk(r.data, 1);
    if (url === r.url && queryString === r.queryString && headers === r.headers && data === r.data) return r;
    const out: RequestLike = { ...r };
    if (url !== undefined) out.url = url;
    if (queryString !== undefined) out.queryString = queryString;
    if (headers !== undefined) out.headers = headers;
    if (data !== undefined) out.data = data;
    return out;
  }

  /** A log record: `message`, `context` and `tags`. */
  log<L extends LogLike>(log: L): L {
    if (!this.active) return log;
    let out: L | undefined;
    const set = <K extends keyof L>(k: K, v: L[K]) => {
      if (v !== log[k]) (out ??= { ...log })[k] = v;
    };
    set('message', this.text(log.message));
    if (log.context !== undefined) set('context', this.walk(log.context, 1) as L['context']);
    if (log.tags !== undefined) set('tags', this.walk(log.tags, 1) as L['tags']);
    return out ?? log;
  }

  /**
   * User feedback: its `message`, and its page `url` as a request's (sensitive query values);
   * `email` and `name` are who wrote it, and kept.
   */
  feedback<F extends { message: string; url?: string }>(feedback: F): F {
    if (!this.active) return feedback;
    const message = this.text(feedback.message);
    const url = feedback.url === undefined ? undefined : this.url(feedback.url);
    if (message === feedback.message && url === feedback.url) return feedback;
    return { ...feedback, message, ...(url === undefined ? {} : { url }) };
  }

  private user(user: Record<string, unknown>): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    const keys = Object.keys(user);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const before = user[key];
      let after: unknown;
      if (key === 'id' || key === 'email') after = before;
      else if (this.ips && (key === 'ip_address' || key === 'ip') && before !== null) after = FILTERED;
      else after = this.member(key, before, 1);
      if (after !== before) out = copyUpTo(out, user, keys, i);
      if (out !== undefined) out[key] = after;
    }
    return out ?? user;
  }

  private member(key: string, v: unknown, depth: number): unknown {
    if (v !== null && v !== FILTERED && this.keys !== undefined && this.keys.test(key)) return FILTERED;
    return this.walk(v, depth + 1);
  }

  private walk(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return this.text(v);
    if (v === null || typeof v !== 'object') return v;
    if (depth > MAX_DEPTH) return FILTERED;
    if (Array.isArray(v)) {
      // `[["Cookie", "a=b"], …]`: a header list as pairs.
      if (
        v.length === 2 &&
        typeof v[0] === 'string' &&
        v[1] !== null &&
        v[1] !== FILTERED &&
        this.isSensitiveKey(v[0])
      ) {
        return [v[0], FILTERED];
      }
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const after = this.walk(v[i], depth + 1);
        if (after !== v[i]) (out ??= v.slice())[i] = after;
      }
      return out ?? v;
    }
    const source = v as Record<string, unknown>;
    const keys = Object.keys(source);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const after = this.member(key, source[key], depth);
      if (after !== source[key]) out = copyUpTo(out, source, keys, i);
      if (out !== undefined) out[key] = after;
    }
    return out ?? v;
  }

  private frames<F extends FrameLike>(frames: F[]): F[] {
    let out: F[] | undefined;
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i];
      const filename = this.scrubText(f.filename, IP_NOT_URL_HOST);
      const fn = f.function === null ? null : this.scrubText(f.function, IP_NOT_URL_HOST);
      // Local variables are scrubbed like `context` (a `password` variable is filtered whole).
      const vars = f.vars === undefined ? undefined : (this.walk(f.vars, 1) as Record<string, string>);
      const context = f.context === undefined ? undefined : this.sourceContext(f.context);
      if (filename !== f.filename || fn !== f.function || vars !== f.vars || context !== f.context) {
        const after = { ...f, filename, function: fn };
        if (vars !== undefined) after.vars = vars;
        if (context !== undefined) after.context = context;
        (out ??= frames.slice())[i] = after;
      }
    }
    return out ?? frames;
  }

  private sourceContext(c: NonNullable<FrameLike['context']>): NonNullable<FrameLike['context']> {
    const pre = this.lines(c.pre);
    const line = this.text(c.line);
    const post = this.lines(c.post);
    return pre === c.pre && line === c.line && post === c.post ? c : { pre, line, post };
  }

  private scrubText(s: string, ip: RegExp): string {
    let out = s;
    if (this.cards && s.length >= 13 && CARD_HINT.test(s)) out = out.replace(CARD_CANDIDATE, cardOrSame);
    // The shortest address worth a regex pass is `::1` (or `1.2.3.4`).
    if (this.ips && s.length >= 3) out = out.replace(ip, ipOrSame);
    return out;
  }
}

/** `out`, or a copy of `source`'s members before index `i` when there is no copy yet. */
function copyUpTo(
  out: Record<string, unknown> | undefined,
  source: Record<string, unknown>,
  keys: string[],
  i: number,
): Record<string, unknown> {
  if (out !== undefined) return out;
  const copy: Record<string, unknown> = {};
  for (let j = 0; j < i; j++) copy[keys[j]] = source[keys[j]];
  return copy;
}

const scrubbers = new WeakMap<PrivacySettings, Scrubber>();
const defaultScrubber = new Scrubber(DEFAULT_PRIVACY_SETTINGS);

/**
 * The scrubber for these settings, built once per settings object (the edge's key cache keeps
 * one per DSN key, so compiling the key pattern is not a per-request cost). Absent settings are
 * the defaults.
 */
export function scrubberFor(settings: PrivacySettings | undefined): Scrubber {
  if (settings === undefined || settings === DEFAULT_PRIVACY_SETTINGS) return defaultScrubber;
  let scrubber = scrubbers.get(settings);
  if (scrubber === undefined) {
    scrubber = new Scrubber(settings);
    scrubbers.set(settings, scrubber);
  }
  return scrubber;
}
