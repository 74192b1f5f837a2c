export * from './alert-rules';
export * from './outbox';
