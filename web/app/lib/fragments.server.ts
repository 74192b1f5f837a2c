import { graphql } from '../graphql';

// Selections shared by several pages' documents. A fragment is known to codegen by its name, so
// nothing imports this file: each document that spreads one gets its text from app/graphql.

/** `plans { ...PlanFields }`: what app/lib/plans.ts reads of the catalogue. */
graphql(`
  fragment PlanFields on PlanInfo {
    id
    name
    eventsPerMonth
    logsPerMonth
    retentionDays
    releaseHealth
  }
`);
