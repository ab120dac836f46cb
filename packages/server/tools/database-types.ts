// The Kysely table types, generated from a migrated database with kysely-codegen: `pnpm db:types`
// writes them to src/db/types.generated.ts, and test/structure/database-types.test.ts fails when that
// file differs from what the current migrations give.
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect as KyselyPostgresDialect, sql } from 'kysely';
import { PostgresDialect, serializeFromMetadata, type DatabaseMetadata, type ExpressionNode } from 'kysely-codegen';
import pg from 'pg';

export const DATABASE_TYPES_FILE = fileURLToPath(new URL('../src/db/types.generated.ts', import.meta.url));

/**
 * Columns whose TypeScript type is narrower than their SQL type: a type → its `table.column`s. A
 * capitalised type is one of src/db/column-types.ts. Give the bare type: `| null` and `Generated<…>`
 * come from the column's nullability and default in the database. A column named here that the
 * database lacks fails the generation.
 */
const NARROWED_COLUMNS: Record<string, string[]> = {
  Role: [
    'organizations.default_role',
    'organization_members.role',
    'space_grants.role',
    'collection_grants.role',
    'link_invites.role',
    'saml_providers.default_role',
  ],
  DefaultLevel: ['collections.default_level', 'spaces.default_level'],
  Visibility: ['spaces.visibility'],
  EditMode: ['spaces.edit_mode'],
  TeamMemberRole: ['team_members.role'],
  PrincipalKind: ['space_grants.principal_kind', 'collection_grants.principal_kind'],
  RevisionType: ['revisions.type'],
  ChangeRequestStatus: ['change_requests.status'],
  ConflictKind: ['revision_conflicts.kind'],
  ConflictResolution: ['revision_conflicts.resolution'],
  CommentStatus: ['comments.status'],
  SiteType: ['sites.type'],
  SiteVisibility: ['sites.visibility'],
  SiteRedirectTargetKind: ['site_redirects.target_kind'],
  SiteFeedbackRating: ['site_feedback.rating'],
  SiteViewKind: ['site_page_views.kind'],
  OpenAPISpecProcessingState: ['openapi_specs.processing_state'],
  OpenAPISpecErrorCode: ['openapi_specs.last_process_error_code'],
  OpenAPIProcessErrors: ['openapi_specs.last_process_errors'],
  OpenAPIFilesystem: ['openapi_spec_versions.filesystem'],
  CustomFieldType: ['custom_field_definitions.type'],
  CustomFieldValue: ['space_custom_field_values.value'],
  EventType: ['events.type'],
  EventTypes: ['webhooks.event_types'],
  WebhookDeliveryState: ['webhook_deliveries.state'],
  WebhookDisabledReason: ['webhooks.disabled_reason'],
  // jsonb written as any value the driver serialises (an object), read without a shape.
  unknown: ['revisions.git', 'space_head_pages.layout', 'space_head_pages.cover', 'change_requests.description'],
  JsonText: [
    'events.actor',
    'events.data',
    'revision_conflicts.base',
    'revision_conflicts.ours',
    'revision_conflicts.theirs',
    'sites.adaptive_schema',
    'sites.customization',
    'openapi_spec_versions.bundle',
    // Written as the JSON text a parse-pool worker made (content/body-parse.ts): the main thread never walks it.
    'document_parses.tree',
    'document_parses.sections',
    'document_parses.blocks',
    'comments.body_document',
    'comment_replies.body_document',
  ],
  CreatedAt: [
    'openapi_specs.created_at',
    'openapi_spec_versions.created_at',
    'translation_settings.created_at',
    'custom_field_definitions.created_at',
    'users.created_at',
    'api_tokens.created_at',
    'organizations.created_at',
    'organization_members.joined_at',
    'server_keys.created_at',
    'collections.created_at',
    'spaces.created_at',
    'teams.created_at',
    'team_members.added_at',
    'space_grants.granted_at',
    'collection_grants.granted_at',
    'link_invites.created_at',
    'saml_providers.created_at',
    'saml_consumed_assertions.consumed_at',
    'revisions.created_at',
    'documents.created_at',
    'file_blobs.created_at',
    'change_requests.created_at',
    'change_request_contributors.first_contributed_at',
    'revision_conflicts.resolved_at',
    'comments.posted_at',
    'comment_replies.posted_at',
    'comment_reactions.reacted_at',
    'comment_reply_reactions.reacted_at',
    'sites.created_at',
    'site_section_groups.created_at',
    'site_sections.created_at',
    'site_spaces.created_at',
    'site_share_links.created_at',
    'events.created_at',
    'webhooks.created_at',
    'webhook_deliveries.created_at',
  ],
};

/**
 * Nullable columns that never hold null, which PostgreSQL cannot tell: the generated sort keys
 * `coalesce(parent_id, '')`. Checked like the list above.
 */
const NEVER_NULL_COLUMNS = new Set(['collections.parent_key', 'spaces.parent_key', 'site_sections.group_key', 'site_spaces.section_key']);

const NARROWED_TYPE = new Map(Object.entries(NARROWED_COLUMNS).flatMap(([type, columns]) => columns.map((column) => [column, type] as const)));
const COLUMN_TYPES_MODULE = './column-types.js';
const COLUMN_TYPES = Object.keys(NARROWED_COLUMNS).filter((type) => /^[A-Z]/.test(type));

/** SQL types mapped otherwise than kysely-codegen's defaults, as the server reads and writes them. */
const TYPE_MAPPING = {
  // db/database.ts parses int8 as a number: counts and sequences stay far below 2^53.
  int8: 'number',
  // numeric (positions) comes back as a decimal string, and is written as one.
  numeric: 'string',
};

const HEADER = `// Generated by \`pnpm db:types\` (kysely-codegen, from a database migrated by src/db/migrations; config in
// tools/database-types.ts). Do not edit: change a migration, or the column list there, and regenerate.
// test/structure/database-types.test.ts fails when this file is stale.
`;

/** Tables of the application: the public schema without Kysely's migration bookkeeping (pg-boss has its own schema). */
const INCLUDE = 'public.*';
const EXCLUDE = 'public.kysely_migration*';

/** Generates the table types from the database at `databaseUrl` (migrated to the latest). */
export async function generateDatabaseTypes(databaseUrl: string): Promise<string> {
  const dialect = new PostgresDialect({ defaultSchemas: ['public'] });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', () => {}); // an idle connection closed by the server: the next query reports it
  const db = new Kysely<unknown>({ dialect: new KyselyPostgresDialect({ pool }) });
  try {
    // kysely-codegen's CommonJS typings name kysely's CommonJS declarations, whose Kysely class is
    // nominally another than the ES module one imported here (the same version and behaviour).
    const metadata = await dialect.introspector.introspect({ db: db as never, includePattern: INCLUDE, excludePattern: EXCLUDE });
    const columns = await columnOverrides(db, dialect, metadata);
    const body = serializeFromMetadata({
      metadata,
      dialect,
      camelCase: true, // the server uses Kysely's CamelCasePlugin
      defaultSchemas: ['public'],
      typeMapping: TYPE_MAPPING,
      customImports: {
        GeneratedAlways: 'kysely',
        ...Object.fromEntries(COLUMN_TYPES.map((name) => [name, COLUMN_TYPES_MODULE])),
      },
      overrides: { columns },
      skipAutogeneratedFileComment: true,
    });
    return HEADER + '\n' + body;
  } finally {
    await db.destroy();
  }
}

/**
 * Type overrides: the narrowed columns, wrapped in `| null` and `Generated<…>` as the database says,
 * and the columns PostgreSQL computes (GENERATED ALWAYS), which can be neither inserted nor updated.
 */
async function columnOverrides(db: Kysely<unknown>, dialect: PostgresDialect, metadata: DatabaseMetadata): Promise<Record<string, string>> {
  const computed = await computedColumns(db);
  const overrides: Record<string, string> = {};
  const unknownNames = new Set([...NARROWED_TYPE.keys(), ...NEVER_NULL_COLUMNS]);
  for (const table of metadata.tables) {
    for (const column of table.columns) {
      const path = `${table.name}.${column.name}`;
      unknownNames.delete(path);
      const narrowed = NARROWED_TYPE.get(path);
      const neverNull = NEVER_NULL_COLUMNS.has(path);
      if (!narrowed && !neverNull && !computed.has(path)) continue;
      const base = narrowed ?? scalarType(dialect, column.dataType, column.isArray);
      const type = column.isNullable && !neverNull ? `${base} | null` : base;
      if (computed.has(path)) overrides[path] = `GeneratedAlways<${type}>`;
      else overrides[path] = column.hasDefaultValue || column.isAutoIncrementing ? `Generated<${type}>` : type;
    }
  }
  if (unknownNames.size > 0) {
    throw new Error(`tools/database-types.ts names columns the database does not have: ${[...unknownNames].join(', ')}`);
  }
  return overrides;
}

/** `table.column` of every column PostgreSQL computes itself: GENERATED ALWAYS AS (…) or AS IDENTITY. */
async function computedColumns(db: Kysely<unknown>): Promise<Set<string>> {
  const { rows } = await sql<{ path: string }>`
    SELECT c.relname || '.' || a.attname AS path
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND a.attnum > 0 AND NOT a.attisdropped AND (a.attgenerated <> '' OR a.attidentity = 'a')`.execute(db);
  return new Set(rows.map((row) => row.path));
}

/** The TypeScript type kysely-codegen gives an SQL type (for computed columns without a narrowed type). */
function scalarType(dialect: PostgresDialect, dataType: string, isArray: boolean): string {
  const mapped = (TYPE_MAPPING as Record<string, string>)[dataType];
  const scalar = (dialect.adapter.scalars as Record<string, ExpressionNode | undefined>)[dataType];
  const name = mapped ?? (scalar?.type === 'Identifier' ? scalar.name : undefined);
  if (!name) throw new Error(`tools/database-types.ts: no TypeScript type for a computed ${dataType} column`);
  return isArray ? `${name}[]` : name;
}
