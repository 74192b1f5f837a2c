export {
  compileIssueQuery,
  likePattern,
  scansEveryIssue,
  titleContains,
  type CompileContext,
} from './compile-issue-query';
export {
  IS_VALUES,
  LEVEL_VALUES,
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  MAX_QUERY_VALUE_CHARS,
  parseIssueQuery,
  QUERY_KEYS,
  type QueryTerm,
} from './parse-issue-query';
export { checkIssueQuery } from './prepare-issue-query';
