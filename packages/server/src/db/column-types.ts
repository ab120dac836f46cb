// The TypeScript types of columns narrower than their SQL type: text columns holding one of a few
// values, and jsonb columns with a chosen read/write shape. The generated table types
// (types.generated.ts) use them through the column list in tools/database-types.ts, which adds `| null`
// and `Generated<…>` from the database itself.
import type { components } from '@content-workspace/contract';
import type { ColumnType } from 'kysely';

export type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
/** A role, `inherit`, or null (no default access). */
export type DefaultLevel = Role | 'inherit' | null;
export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type EditMode = 'live' | 'locked';
export type PrincipalKind = 'user' | 'team';
export type TeamMemberRole = 'owner' | 'member';
export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback' | 'computed';
export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
export type ConflictKind = 'page_field' | 'document_hunk' | 'modify_delete' | 'move_cycle' | 'slug_collision' | 'file' | 'reusable';
export type ConflictResolution = 'theirs' | 'ours' | 'auto';
export type CommentStatus = 'open' | 'resolved';
export type SiteType = 'basic' | 'premium' | 'ultimate';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
export type SiteRedirectTargetKind = 'page' | 'url';
export type SiteFeedbackRating = 'bad' | 'ok' | 'good';
/** What read a published page: a person (`page`), or an agent through its Markdown or MCP endpoint. */
export type SiteViewKind = 'page' | 'markdown' | 'mcp';

/** A time set when the row is made (by default now()), never changed. */
export type CreatedAt = ColumnType<Date, Date | string, never>;

/** jsonb written from JSON text (the driver would send a JS array as a PostgreSQL array). */
export type JsonText = ColumnType<unknown, string, string>;

export type OpenAPISpecProcessingState = 'pending' | 'progress' | 'complete';
export type OpenAPISpecErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
/** The errors of an OpenAPI spec's last processing (json written from JSON text). */
export type OpenAPIProcessErrors = ColumnType<Array<{ message: string; location: string }>, string, string>;
/** A version's files: the entry document's name and each file parsed (json written from JSON text). */
export type OpenAPIFilesystem = ColumnType<{ entrypoint: string; files: Record<string, unknown> }, string, string>;
export type CustomFieldType = 'text' | 'number' | 'boolean' | 'tags' | 'select:single' | 'select:multi';
export type CustomFieldValueData = string | number | boolean | string[];
/** A space's value of a custom field (jsonb written from JSON text). */
export type CustomFieldValue = ColumnType<CustomFieldValueData, string, string>;

/** An event's type (the contract's catalogue, spec/components/schemas/EventType.yaml). */
export type EventType = components['schemas']['EventType'];
/** The event types a webhook subscribes to. */
export type EventTypes = EventType[];
/** Where a webhook delivery stands: `sending` is a claimed attempt, due again when its lease ends. */
export type WebhookDeliveryState = 'pending' | 'sending' | 'succeeded' | 'failed';
/** Why the server disabled a webhook. */
export type WebhookDisabledReason = 'failing';
