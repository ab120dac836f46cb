// Table types for Kysely, in camelCase (CamelCasePlugin maps them to snake_case columns).
// Keep in step with migrations/: a column added there is added here.
import type { ColumnType, Generated } from 'kysely';

/** A timestamptz(3) column with a default. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';

export interface UsersTable {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
  createdAt: CreatedAt;
}

export interface ApiTokensTable {
  id: string;
  userId: string;
  label: string;
  tokenHash: Buffer;
  createdAt: CreatedAt;
  lastUsedAt: NullableTimestamp;
  expiresAt: NullableTimestamp;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  createdAt: CreatedAt;
  emailDomains: ColumnType<string[], string[] | undefined, string[]>;
  hostname: string | null;
  useCase: string | null;
  communityType: string | null;
  defaultRole: Role | null;
  defaultContentSiteId: string | null;
  sso: Generated<boolean>;
  ai: Generated<boolean>;
  inviteLinks: Generated<boolean>;
  customHostname: string | null;
  logoUrl: string | null;
}

export interface OrganizationMembersTable {
  organizationId: string;
  userId: string;
  /** null: a guest. */
  role: Role | null;
  sso: Generated<boolean>;
  joinedAt: CreatedAt;
  lastSeenAt: NullableTimestamp;
}

export interface ServerKeysTable {
  kind: string;
  /** Secret material; the kind decides its format. */
  material: string;
  createdAt: CreatedAt;
  rotatedAt: NullableTimestamp;
}

export interface DB {
  users: UsersTable;
  apiTokens: ApiTokensTable;
  organizations: OrganizationsTable;
  organizationMembers: OrganizationMembersTable;
  serverKeys: ServerKeysTable;
}

export type { Timestamp };
