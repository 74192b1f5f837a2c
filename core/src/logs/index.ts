export { MAX_ATTRIBUTE_FILTERS, MAX_LOGS_PAGE, searchLogs } from './search-logs';
export type { LogAttributeFilter, LogPage, LogRecord, SearchLogsInput } from './search-logs';
