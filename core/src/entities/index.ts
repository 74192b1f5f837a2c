import { Event } from './event.entity';
import { Feedback } from './feedback.entity';
import { Issue } from './issue.entity';
import { LogEntry } from './log-entry.entity';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { Project } from './project.entity';
import { ProjectKey } from './project-key.entity';
import { Session } from './session.entity';
import { User } from './user.entity';
import { VitalsReport } from './vitals-report.entity';

export { Event, Feedback, Issue, LogEntry, Membership, Organization, Project, ProjectKey, Session, User, VitalsReport };
export type { IssueStatus, Level } from './issue.entity';
export type { Role } from './membership.entity';
export type { PlanId } from './organization.entity';

export const ENTITIES = [
  User,
  Organization,
  Membership,
  Session,
  Project,
  ProjectKey,
  Issue,
  Event,
  LogEntry,
  VitalsReport,
  Feedback,
];
