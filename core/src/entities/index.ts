import { Event } from './event.entity';
import { Issue } from './issue.entity';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { Project } from './project.entity';
import { ProjectKey } from './project-key.entity';
import { Session } from './session.entity';
import { User } from './user.entity';

export { Event, Issue, Membership, Organization, Project, ProjectKey, Session, User };
export type { IssueStatus, Level } from './issue.entity';
export type { Role } from './membership.entity';
export type { PlanId } from './organization.entity';

export const ENTITIES = [User, Organization, Membership, Session, Project, ProjectKey, Issue, Event];
