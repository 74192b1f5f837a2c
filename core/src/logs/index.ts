export { MAX_LOGS_PAGE, searchLogs } from './search-logs';
export type { LogPage, LogRecord, SearchLogsInput } from './search-logs';
