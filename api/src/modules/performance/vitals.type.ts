import {
  VITAL_THRESHOLDS,
  type PageVitals,
  type VitalsBucket,
  type VitalsSummary,
  type VitalStats,
} from '@tracker/core';
import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum VitalMetricEnum {
  LCP = 'LCP',
  INP = 'INP',
  CLS = 'CLS',
  FCP = 'FCP',
  TTFB = 'TTFB',
}
registerEnumType(VitalMetricEnum, {
  name: 'VitalMetric',
  description: 'Core Web Vitals. Milliseconds, except CLS (unitless).',
});

export enum VitalsIntervalEnum {
  HOUR = 'hour',
  DAY = 'day',
}
registerEnumType(VitalsIntervalEnum, { name: 'VitalsInterval' });

@InputType('VitalsFilter', {
  description: 'All optional. Times are ISO 8601; the range is from ≤ t < to on the time a report was received.',
})
export class VitalsFilterInput {
  @Field(() => String, { nullable: true })
  environment?: string | null;

  @Field(() => String, { nullable: true })
  release?: string | null;

  @Field(() => String, { nullable: true, description: 'One page: the URL as stored (no query or hash).' })
  url?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Default: `to` minus 7 days. The range may span at most 366 days.',
  })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Default: now.' })
  to?: string | null;
}

@ObjectType('VitalThresholds', { description: 'web.dev: at most `good` is good, above `poor` is poor.' })
export class VitalThresholdsType {
  @Field(() => Float)
  good: number;

  @Field(() => Float)
  poor: number;
}

@ObjectType('VitalStats', {
  description:
    "One metric over a set of page views. Percentiles are PostgreSQL's percentile_cont: linear interpolation " +
    'between the two nearest ranks (position (n − 1)·p of the n sorted values, from 0), as NumPy and Excel ' +
    'PERCENTILE.INC. Shares are of the page views that measured the metric; null when none did.',
})
export class VitalStatsType {
  @Field(() => VitalMetricEnum)
  metric: VitalMetricEnum;

  @Field(() => String, { description: '`ms`, or `score` for CLS.' })
  unit: string;

  @Field(() => Int, { description: 'Page views that measured this metric.' })
  count: number;

  @Field(() => Float, { nullable: true })
  p50: number | null;

  @Field(() => Float, { nullable: true })
  p75: number | null;

  @Field(() => Float, { nullable: true })
  p95: number | null;

  @Field(() => Int)
  good: number;

  @Field(() => Int)
  needsImprovement: number;

  @Field(() => Int)
  poor: number;

  @Field(() => Float, { nullable: true, description: '0 to 1.' })
  goodShare: number | null;

  @Field(() => Float, { nullable: true, description: '0 to 1.' })
  needsImprovementShare: number | null;

  @Field(() => Float, { nullable: true, description: '0 to 1.' })
  poorShare: number | null;

  @Field(() => VitalThresholdsType)
  thresholds: VitalThresholdsType;
}

@ObjectType('VitalsSummary', { description: 'Every report is one page view.' })
export class VitalsSummaryType {
  @Field(() => String, { description: 'ISO 8601: the range used, defaults filled in.' })
  from: string;

  @Field(() => String)
  to: string;

  @Field(() => Int)
  pageViews: number;

  @Field(() => [VitalStatsType], { description: 'All five metrics, in the order LCP, INP, CLS, FCP, TTFB.' })
  metrics: VitalStatsType[];
}

@ObjectType('PageVitals', { description: 'One page URL: its page views and figures.' })
export class PageVitalsType {
  @Field(() => String)
  url: string;

  @Field(() => Int)
  pageViews: number;

  @Field(() => [VitalStatsType])
  metrics: VitalStatsType[];
}

@ObjectType('VitalsBucket', { description: 'p75 of each metric over [start, start + interval); null when unmeasured.' })
export class VitalsBucketType {
  @Field(() => String, { description: 'ISO 8601. Buckets are aligned on the range’s `from`.' })
  start: string;

  @Field(() => Int)
  pageViews: number;

  @Field(() => Float, { nullable: true })
  lcp: number | null;

  @Field(() => Float, { nullable: true })
  inp: number | null;

  @Field(() => Float, { nullable: true })
  cls: number | null;

  @Field(() => Float, { nullable: true })
  fcp: number | null;

  @Field(() => Float, { nullable: true })
  ttfb: number | null;
}

@ObjectType('VitalsTimeSeries')
export class VitalsTimeSeriesType {
  @Field(() => VitalsIntervalEnum)
  interval: VitalsIntervalEnum;

  @Field(() => String)
  from: string;

  @Field(() => String)
  to: string;

  @Field(() => [VitalsBucketType], { description: 'Every bucket of the range, oldest first; at most 1000.' })
  buckets: VitalsBucketType[];
}

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

export function toVitalStatsType(s: VitalStats): VitalStatsType {
  return {
    metric: s.metric as VitalMetricEnum,
    unit: s.metric === 'CLS' ? 'score' : 'ms',
    count: s.count,
    p50: s.p50,
    p75: s.p75,
    p95: s.p95,
    good: s.good,
    needsImprovement: s.needsImprovement,
    poor: s.poor,
    goodShare: share(s.good, s.count),
    needsImprovementShare: share(s.needsImprovement, s.count),
    poorShare: share(s.poor, s.count),
    thresholds: { ...VITAL_THRESHOLDS[s.metric] },
  };
}

export function toVitalsSummaryType(s: VitalsSummary, range: { from: Date; to: Date }): VitalsSummaryType {
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    pageViews: s.pageViews,
    metrics: s.metrics.map(toVitalStatsType),
  };
}

export function toPageVitalsType(p: PageVitals): PageVitalsType {
  return { url: p.url, pageViews: p.pageViews, metrics: p.metrics.map(toVitalStatsType) };
}

export function toVitalsBucketType(b: VitalsBucket): VitalsBucketType {
  return {
    start: b.start.toISOString(),
    pageViews: b.pageViews,
    lcp: b.p75.LCP,
    inp: b.p75.INP,
    cls: b.p75.CLS,
    fcp: b.p75.FCP,
    ttfb: b.p75.TTFB,
  };
}
