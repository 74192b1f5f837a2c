import 'reflect-metadata';

export * from './accounts';
export * from './config';
export * from './db';
export * from './entities';
export * from './errors';
export * from './events';
export * from './grouping';
export * from './issues';
export * from './projects';
export * from './security';
export * from './stacktrace';
export type { StackFrame } from './stacktrace/stack-frame';
export * from './operator';
