export * from './subscription-plan';
export * from './apply-stripe-event';
export * from './billing-accounts';
