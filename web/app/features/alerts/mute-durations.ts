/** Durations the mute forms offer (the rule's, the issue's, the alert link's page). */
export const MUTE_DURATIONS = [
  { value: '1h', label: '1 hour', ms: 3_600_000 },
  { value: '8h', label: '8 hours', ms: 8 * 3_600_000 },
  { value: '24h', label: '24 hours', ms: 24 * 3_600_000 },
  { value: '7d', label: '7 days', ms: 7 * 24 * 3_600_000 },
] as const;
