export * from './alert-rules';
export * from './outbox';
export * from './alert-channels';
export * from './delivery-attempt';
export * from './delivery-health';
export * from './test-alert-rule';
