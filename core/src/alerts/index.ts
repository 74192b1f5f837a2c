export * from './alert-rules';
export * from './outbox';
export * from './rule-settings';
export * from './conditions';
export * from './evaluate';
