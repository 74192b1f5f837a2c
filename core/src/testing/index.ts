export * from './databases';
export * from './bench-report';
export * from './chromium';
