export * from './databases';
export * from './bench-report';
export * from './chromium';
export * from './seed-issues';
export * from './cpu';
export * from './net';
export * from './private-servers';
export * from './smtp-receiver';
