/** What a batch insert of logs, vitals or feedback did; duplicates are redeliveries (same id). */
export interface RecordsResult {
  inserted: number;
  duplicates: number;
}
