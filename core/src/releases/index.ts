export * from './releases';
export * from './source-maps';
export * from './upload-tokens';
export * from './release-health';
export * from './mark-release';
export * from './health-sample';
export * from './token-scope';
