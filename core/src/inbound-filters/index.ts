export * from './settings';
export { compileGlob, compileInboundFilters, type CompiledInboundFilters } from './compile';
export { inboundFilterFor } from './match';
export { applyInboundFilterChanges } from './validate';
export * from './manage';
