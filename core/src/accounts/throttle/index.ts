export * from './store';
export * from './throttle';
