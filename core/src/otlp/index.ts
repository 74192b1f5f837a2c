export { mapOtlpSpans, type OtlpSpanCandidates } from './map-otlp-spans';
export { mapOtlpLogs, levelOfSeverity, type OtlpLogCandidate } from './map-otlp-logs';
export { readOtlpResource, resourceFields, type OtlpResource } from './otlp-resource';
export { attributesOf, hexIdOf, isoOfUnixNano, numberOf, valueOf } from './otlp-values';
