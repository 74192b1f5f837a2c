export * from './partition-names';
export * from './ensure-partitions';
export * from './drop-expired-partitions';
export * from './claim-ids';
