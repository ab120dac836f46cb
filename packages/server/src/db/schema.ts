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
  /** The organization whose identity provider created the account (null: made otherwise). */
  createdByOrganizationId: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiTokensTable {
  id: string;
  userId: string;
  label: string;
  tokenHash: Buffer;
  createdAt: CreatedAt;
  lastUsedAt: NullableTimestamp;
  expiresAt: NullableTimestamp;
  /** The one organization a token issued through its SSO may reach; null: the user's whole standing. */
  organizationId: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Moves whenever what members may list can change (triggers); list counts are cached against it. */
  listingVersion: Generated<number>;
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

/** A role, `inherit`, or null (no default access). */
export type DefaultLevel = Role | 'inherit' | null;
export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type EditMode = 'live' | 'locked';
export type PrincipalKind = 'user' | 'team';
/** numeric, as the driver returns it (a decimal string). */
type Position = ColumnType<string, string, string>;

export interface SpaceLocatorsTable {
  spaceId: string;
  organizationId: string;
}

export interface CollectionLocatorsTable {
  collectionId: string;
  organizationId: string;
}

export interface CollectionsTable {
  organizationId: string;
  id: string;
  title: string;
  description: string | null;
  parentCollectionId: string | null;
  /** Generated: the parent collection id, or '' at the top level (a non-null sort key). */
  parentKey: ColumnType<string, never, never>;
  defaultLevel: DefaultLevel;
  position: Position;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SpacesTable {
  organizationId: string;
  id: string;
  title: string;
  emoji: Generated<string>;
  visibility: Visibility;
  editMode: Generated<EditMode>;
  parentCollectionId: string | null;
  /** Generated: the parent collection id, or '' at the top level (a non-null sort key). */
  parentKey: ColumnType<string, never, never>;
  defaultLevel: DefaultLevel;
  position: Position;
  headRevisionId: string;
  crSeq: Generated<number>;
  commentsCount: Generated<number>;
  changeRequestsCount: Generated<number>;
  changeRequestsOpenCount: Generated<number>;
  changeRequestsDraftCount: Generated<number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  deletedAt: NullableTimestamp;
  /** True while a published site holds the space (kept by the sites area). */
  inPublishedSite: Generated<boolean>;
}

export interface TeamsTable {
  organizationId: string;
  id: string;
  title: string;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TeamMembersTable {
  organizationId: string;
  teamId: string;
  userId: string;
  role: Generated<TeamMemberRole>;
  addedAt: CreatedAt;
}

export interface SpaceGrantsTable {
  organizationId: string;
  spaceId: string;
  principalKind: PrincipalKind;
  principalId: string;
  role: Role;
  grantedAt: CreatedAt;
}

export interface CollectionGrantsTable {
  organizationId: string;
  collectionId: string;
  principalKind: PrincipalKind;
  principalId: string;
  role: Role;
  grantedAt: CreatedAt;
}

export type TeamMemberRole = 'owner' | 'member';

export interface LinkInvitesTable {
  organizationId: string;
  /** Also the invite's secret. */
  id: string;
  /** null: the organization's defaultRole when someone joins. */
  role: Role | null;
  createdBy: string | null;
  createdAt: CreatedAt;
}

export interface SamlProvidersTable {
  organizationId: string;
  id: string;
  label: string;
  entityId: string | null;
  ssoUrl: string | null;
  /** PEM. */
  certificate: string | null;
  defaultTeamId: string | null;
  /** null: new members are guests. */
  defaultRole: Role | null;
  /** Generated: entityId, ssoUrl and certificate are all set. */
  active: ColumnType<boolean, never, never>;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SamlConsumedAssertionsTable {
  organizationId: string;
  providerId: string;
  assertionId: string;
  expiresAt: Timestamp;
  consumedAt: CreatedAt;
}

export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback' | 'computed';

export interface RevisionsTable {
  organizationId: string;
  id: string;
  spaceId: string;
  type: RevisionType;
  parentIds: ColumnType<string[], string[] | undefined, string[]>;
  changeRequestId: string | null;
  mergedFromChangeRequestId: string | null;
  pagesRoot: Buffer | null;
  filesRoot: Buffer | null;
  reusableRoot: Buffer | null;
  pageCount: Generated<number>;
  createdBy: string | null;
  createdAt: CreatedAt;
  git: unknown | null;
}

/** A content-addressed node (tree_nodes, file_nodes, reusable_nodes): `data` is its deflated JSON. */
export interface ContentNodesTable {
  organizationId: string;
  hash: Buffer;
  data: Buffer;
}

export type TreeNodesTable = ContentNodesTable;

export interface DocumentsTable {
  organizationId: string;
  hash: Buffer;
  markdown: string;
  byteLength: number;
  createdAt: CreatedAt;
}

export interface FileBlobsTable {
  organizationId: string;
  sha256: Buffer;
  size: number;
  width: number | null;
  height: number | null;
  storage: Generated<string>;
  createdAt: CreatedAt;
}

export interface BlobBytesTable {
  organizationId: string;
  sha256: Buffer;
  data: Buffer;
}

export interface SpaceHeadPagesTable {
  organizationId: string;
  spaceId: string;
  pageId: string;
  parentPageId: string | null;
  position: number;
  depth: number;
  type: string;
  title: string;
  slug: string;
  path: string;
  documentHash: Buffer | null;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  layout: unknown | null;
  cover: unknown | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SpaceHeadFilesTable {
  organizationId: string;
  spaceId: string;
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  blobHash: Buffer;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestsTable {
  organizationId: string;
  id: string;
  spaceId: string;
  number: number;
  status: ChangeRequestStatus;
  subject: Generated<string>;
  description: unknown | null;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  revisionId: string;
  revisionInitialId: string;
  revisionMergedAncestorId: string | null;
  revisionMergedId: string | null;
  mergedAt: NullableTimestamp;
  mergedBy: string | null;
  agentTaskId: string | null;
  commentsCount: Generated<number>;
}

export interface ChangeRequestContributorsTable {
  organizationId: string;
  changeRequestId: string;
  userId: string;
  firstContributedAt: CreatedAt;
}

export type ConflictKind = 'page_field' | 'document_hunk' | 'modify_delete' | 'move_cycle' | 'slug_collision' | 'file' | 'reusable';
export type ConflictResolution = 'theirs' | 'ours' | 'auto';
/** jsonb written from JSON text (the driver would send a JS array as a PostgreSQL array). */
type Json = ColumnType<unknown, string | null, string | null>;

export interface RevisionConflictsTable {
  organizationId: string;
  revisionId: string;
  ordinal: number;
  kind: ConflictKind;
  pageId: string | null;
  fileId: string | null;
  reusableContentId: string | null;
  field: string | null;
  base: Json;
  ours: Json;
  theirs: Json;
  resolution: ConflictResolution;
  resolvedAt: CreatedAt;
}

/** An organization some of whose content objects may have become unreachable (garbage collection). */
export interface ContentGarbageMarksTable {
  organizationId: string;
  markedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

// Change-request PDFs (areas/pdf).
export interface RevisionPdfsTable {
  organizationId: string;
  revisionId: string;
  variant: string;
  pdf: Buffer;
  byteLength: number;
  createdAt: ColumnType<Date, Date | string | undefined, Date | string>;
  usedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Written only by rate-limiter-flexible (http/rate-limit-store.ts): `expire` is epoch milliseconds. */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

// ---- Comments (areas/comments) ----

export type CommentStatus = 'open' | 'resolved';

export interface CommentsTable {
  organizationId: string;
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  /** Generated: the change request id, or '' for the space's own comments (the lists' key). */
  contextKey: ColumnType<string, never, never>;
  revisionId: string;
  pageId: string | null;
  pageTitle: string | null;
  pagePath: string | null;
  targetDocumentHash: Buffer | null;
  nodeId: string | null;
  nodePreview: string | null;
  anchorQuote: string | null;
  anchorPrefix: string | null;
  anchorSuffix: string | null;
  bodyMarkdown: string;
  status: Generated<CommentStatus>;
  resolvedAt: NullableTimestamp;
  resolvedBy: string | null;
  postedBy: string;
  postedAt: CreatedAt;
  editedAt: NullableTimestamp;
  repliesCount: Generated<number>;
}

export interface CommentRepliesTable {
  organizationId: string;
  id: string;
  commentId: string;
  bodyMarkdown: string;
  postedBy: string;
  postedAt: CreatedAt;
  editedAt: NullableTimestamp;
}

export interface CommentReactionsTable {
  organizationId: string;
  commentId: string;
  emoji: string;
  userId: string;
  reactedAt: CreatedAt;
}

export interface CommentReplyReactionsTable {
  organizationId: string;
  replyId: string;
  emoji: string;
  userId: string;
  reactedAt: CreatedAt;
}

export interface CommentListVersionsTable {
  organizationId: string;
  spaceId: string;
  contextKey: string;
  version: number;
}

export interface CommentAnchorsTable {
  organizationId: string;
  commentId: string;
  documentHash: Buffer;
  nodeId: string | null;
  nodePreview: string | null;
}

// ---- Sites (areas/sites) ----

export type SiteType = 'basic' | 'premium' | 'ultimate';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SitesTable {
  organizationId: string;
  id: string;
  type: Generated<SiteType>;
  title: string;
  visibility: Generated<SiteVisibility>;
  published: Generated<boolean>;
  hostname: ColumnType<string | null, string | null | undefined, string | null>;
  basename: ColumnType<string | null, string | null | undefined, string | null>;
  proxy: ColumnType<string | null, string | null | undefined, string | null>;
  adaptiveContentEnabled: Generated<boolean>;
  adaptiveSchema: ColumnType<unknown, string | null | undefined, string | null>;
  adaptiveSchemaUpdatedAt: NullableTimestamp;
  customization: ColumnType<unknown, string | null | undefined, string | null>;
  visitorAuthFallbackUrl: ColumnType<string | null, string | null | undefined, string | null>;
  visitorAuthSecret: ColumnType<string | null, string | null | undefined, string | null>;
  visitorAuthSecretCreatedAt: NullableTimestamp;
  createdBy: string | null;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SiteAddressesTable {
  address: string;
  organizationId: string;
  siteId: string;
}

export interface SiteSectionGroupsTable {
  organizationId: string;
  siteId: string;
  id: string;
  title: string;
  icon: string | null;
  position: Position;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SiteSectionsTable {
  organizationId: string;
  siteId: string;
  id: string;
  title: string;
  path: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  groupId: string | null;
  groupKey: ColumnType<string, never, never>;
  isDefault: Generated<boolean>;
  position: Position;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SiteSpacesTable {
  organizationId: string;
  siteId: string;
  id: string;
  spaceId: string;
  sectionId: string | null;
  sectionKey: ColumnType<string, never, never>;
  path: string;
  condition: string | null;
  isDefault: Generated<boolean>;
  position: Position;
  createdAt: CreatedAt;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SiteShareLinksTable {
  organizationId: string;
  siteId: string;
  id: string;
  label: string;
  keyHash: Buffer;
  createdBy: string | null;
  createdAt: CreatedAt;
}

export interface DB {
  users: UsersTable;
  apiTokens: ApiTokensTable;
  organizations: OrganizationsTable;
  organizationMembers: OrganizationMembersTable;
  serverKeys: ServerKeysTable;
  spaceLocators: SpaceLocatorsTable;
  collectionLocators: CollectionLocatorsTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  teams: TeamsTable;
  teamMembers: TeamMembersTable;
  spaceGrants: SpaceGrantsTable;
  collectionGrants: CollectionGrantsTable;
  linkInvites: LinkInvitesTable;
  samlProviders: SamlProvidersTable;
  samlConsumedAssertions: SamlConsumedAssertionsTable;
  revisions: RevisionsTable;
  treeNodes: TreeNodesTable;
  documents: DocumentsTable;
  fileNodes: ContentNodesTable;
  reusableNodes: ContentNodesTable;
  fileBlobs: FileBlobsTable;
  blobBytes: BlobBytesTable;
  spaceHeadPages: SpaceHeadPagesTable;
  spaceHeadFiles: SpaceHeadFilesTable;
  changeRequests: ChangeRequestsTable;
  changeRequestContributors: ChangeRequestContributorsTable;
  revisionConflicts: RevisionConflictsTable;
  contentGarbageMarks: ContentGarbageMarksTable;
  revisionPdfs: RevisionPdfsTable;
  rateLimits: RateLimitsTable;
  comments: CommentsTable;
  commentReplies: CommentRepliesTable;
  commentReactions: CommentReactionsTable;
  commentReplyReactions: CommentReplyReactionsTable;
  commentAnchors: CommentAnchorsTable;
  commentListVersions: CommentListVersionsTable;
  sites: SitesTable;
  siteAddresses: SiteAddressesTable;
  siteSectionGroups: SiteSectionGroupsTable;
  siteSections: SiteSectionsTable;
  siteSpaces: SiteSpacesTable;
  siteShareLinks: SiteShareLinksTable;
}

export type { Timestamp };

// --- Organization settings (issue 17): OpenAPI specs, translation settings, custom fields -----------

export type OpenAPISpecProcessingState = 'pending' | 'progress' | 'complete';
export type OpenAPISpecErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A `json` column written from JSON text, read back parsed. */
type JsonText<T> = ColumnType<T, string, string>;

export interface OpenapiSpecsTable {
  organizationId: string;
  id: string;
  slug: string;
  /** Exactly one of the two is set. */
  sourceUrl: string | null;
  sourceText: string | null;
  processingState: ColumnType<OpenAPISpecProcessingState, OpenAPISpecProcessingState | undefined, OpenAPISpecProcessingState>;
  /** Moves whenever the source is set; a processing of an older revision discards its result. */
  sourceRevision: ColumnType<number, number | undefined, number>;
  lastVersionId: string | null;
  lastProcessedAt: NullableTimestamp;
  lastProcessErrorCode: OpenAPISpecErrorCode | null;
  lastProcessErrors: ColumnType<Array<{ message: string; location: string }> | null, string | null | undefined, string | null>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface OpenapiSpecVersionsTable {
  organizationId: string;
  specId: string;
  id: string;
  /** SHA-256 (hex) of the filesystem's JSON. */
  contentHash: string;
  filesystem: JsonText<{ entrypoint: string; files: Record<string, unknown> }>;
  /** The bundled document. */
  bundle: JsonText<unknown>;
  createdAt: CreatedAt;
}

export interface TranslationSettingsTable {
  organizationId: string;
  id: string;
  title: string;
  /** Canonical BCP 47 tags, in the order given. */
  languages: ColumnType<string[], string[] | undefined, string[]>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export type CustomFieldType = 'text' | 'number' | 'boolean' | 'tags' | 'select:single' | 'select:multi';
export type CustomFieldValueData = string | number | boolean | string[];

export interface CustomFieldDefinitionsTable {
  organizationId: string;
  id: string;
  name: string;
  type: CustomFieldType;
  title: string | null;
  description: string | null;
  placeholder: string | null;
  /** Set for the select types only. */
  options: string[] | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface SpaceCustomFieldValuesTable {
  organizationId: string;
  spaceId: string;
  /** The definition's name. */
  field: string;
  /** jsonb written from JSON text. */
  value: ColumnType<CustomFieldValueData, string, string>;
  updatedAt: UpdatedAt;
}

export interface DB {
  openapiSpecs: OpenapiSpecsTable;
  openapiSpecVersions: OpenapiSpecVersionsTable;
  translationSettings: TranslationSettingsTable;
  customFieldDefinitions: CustomFieldDefinitionsTable;
  spaceCustomFieldValues: SpaceCustomFieldValuesTable;
}
