export * from './chunk-limits';
export * from './chunks';
export * from './debug-ids';
export * from './debug-id-maps';
export * from './unpack-bundle';
export * from './assemble-bundle';
