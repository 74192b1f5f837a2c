export * from './lifecycle';
export * from './regression-reason';
