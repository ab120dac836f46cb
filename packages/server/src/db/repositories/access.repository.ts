// The effective-role queries (DESIGN.md §6), in SQL so a role is one round trip for one item and one
// query for a whole list. Ranks: 0 none, 1 read, 2 comment, 3 edit, 4 review, 5 create, 6 admin.
//
// Effective role = the highest of
//   - grants (direct or through a team) on the item or any collection above it, for members (guests included);
//   - the default level, for non-guest members: the first level that is not `inherit` walking up from
//     the item (an `in-collection` space starts at its collection), else the member's own role;
//   - `read` on `public`/`unlisted` spaces, for anyone;
//   - `admin` for organization admins.
import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Executor } from '../database.js';
import type { CollectionsTable, DefaultLevel, EditMode, Role, Visibility } from '../schema.js';

export type SpaceRow = {
  organizationId: string;
  id: string;
  title: string;
  emoji: string;
  visibility: Visibility;
  editMode: EditMode;
  parentCollectionId: string | null;
  /** The parent collection id, or '' at the top level (generated; the sort key of lists). */
  parentKey: string;
  defaultLevel: DefaultLevel;
  position: string;
  headRevisionId: string;
  crSeq: number;
  commentsCount: number;
  changeRequestsCount: number;
  changeRequestsOpenCount: number;
  changeRequestsDraftCount: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
};

export type CollectionRow = Omit<CollectionsTable, 'createdAt' | 'updatedAt' | 'position' | 'parentKey'> & {
  position: string;
  parentKey: string;
  createdAt: Date;
  updatedAt: Date;
};

/** The caller's standing, as the access queries return it alongside the item. */
export type AccessColumns = {
  accessRank: number;
  memberRole: Role | null;
  isMember: boolean;
  /** The organization enforces SSO and the member is neither an SSO member nor an admin. */
  ssoBlocked: boolean;
};

export type SpaceAccessRow = SpaceRow & AccessColumns;
export type CollectionAccessRow = CollectionRow & AccessColumns;

const memberColumns = sql`
  (SELECT role FROM m) AS member_role,
  EXISTS (SELECT 1 FROM m) AS is_member,
  (o.sso AND EXISTS (SELECT 1 FROM m) AND NOT coalesce((SELECT sso FROM m), false)
   AND (SELECT role FROM m) IS DISTINCT FROM 'admin') AS sso_blocked`;

/** `m` (the user's membership) and `my_teams`, for the organization of the item in CTE `s`. */
const membershipCtes = (userId: string) => sql`
    m AS (
      SELECT om.role, om.sso FROM organization_members om JOIN s ON om.organization_id = s.organization_id
      WHERE om.user_id = ${userId}
    ),
    my_teams AS (
      SELECT tm.team_id FROM team_members tm JOIN s ON tm.organization_id = s.organization_id WHERE tm.user_id = ${userId}
    )`;

const grantFilter = (userId: string) => sql`
  ((g.principal_kind = 'user' AND g.principal_id = ${userId})
   OR (g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM my_teams)))`;

/**
 * The rank of one item from the CTEs `m` (membership), `levels` (the item's own default level at depth 0,
 * then its collections') and `grants`; `publicRead` adds read for public spaces.
 */
function singleItemRank(publicRead: RawBuilder<unknown> = sql`0`) {
  return sql`GREATEST(
    CASE WHEN (SELECT role FROM m) IS NULL THEN 0
         ELSE coalesce(
           (SELECT cw_role_rank(default_level) FROM levels WHERE default_level IS DISTINCT FROM 'inherit' ORDER BY depth LIMIT 1),
           cw_role_rank((SELECT role FROM m)))
    END,
    CASE WHEN EXISTS (SELECT 1 FROM m) THEN coalesce((SELECT max(cw_role_rank(role)) FROM grants), 0) ELSE 0 END,
    CASE WHEN (SELECT role FROM m) = 'admin' THEN 6 ELSE 0 END,
    ${publicRead}
  ) AS access_rank`;
}

/** One space (by id alone: the organization comes from its locator) with the user's standing on it. */
export async function findSpaceAccess(
  db: Executor,
  spaceId: string,
  userId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<SpaceAccessRow | undefined> {
  const deletedFilter = options.includeDeleted ? sql`` : sql`AND sp.deleted_at IS NULL`;
  const result = await sql<SpaceAccessRow>`${PREPARED}
    WITH RECURSIVE
    s AS (
      SELECT sp.* FROM space_locators l
      JOIN spaces sp ON sp.organization_id = l.organization_id AND sp.id = l.space_id
      WHERE l.space_id = ${spaceId} ${deletedFilter}
    ),
    ${membershipCtes(userId)},
    chain AS (
      SELECT c.organization_id, c.id, c.parent_collection_id, c.default_level, 1 AS depth
      FROM collections c JOIN s ON c.organization_id = s.organization_id AND c.id = s.parent_collection_id
      UNION ALL
      SELECT c.organization_id, c.id, c.parent_collection_id, c.default_level, chain.depth + 1
      FROM collections c JOIN chain ON c.organization_id = chain.organization_id AND c.id = chain.parent_collection_id
    ),
    levels AS (
      SELECT 0 AS depth, s.default_level FROM s WHERE s.visibility <> 'in-collection' OR s.parent_collection_id IS NULL
      UNION ALL
      SELECT depth, default_level FROM chain
    ),
    grants AS (
      SELECT g.role FROM space_grants g JOIN s ON g.organization_id = s.organization_id AND g.space_id = s.id
      WHERE ${grantFilter(userId)}
      UNION ALL
      SELECT g.role FROM collection_grants g JOIN chain ON g.organization_id = chain.organization_id AND g.collection_id = chain.id
      WHERE ${grantFilter(userId)}
    )
    SELECT s.*, ${memberColumns},
      ${singleItemRank(sql`CASE WHEN s.visibility IN ('public', 'unlisted') THEN 1 ELSE 0 END`)}
    FROM s JOIN organizations o ON o.id = s.organization_id`.execute(db);
  return result.rows[0];
}

/** One collection with the user's standing on it. */
export async function findCollectionAccess(db: Executor, collectionId: string, userId: string): Promise<CollectionAccessRow | undefined> {
  const result = await sql<CollectionAccessRow>`${PREPARED}
    WITH RECURSIVE
    s AS (
      SELECT c.* FROM collection_locators l
      JOIN collections c ON c.organization_id = l.organization_id AND c.id = l.collection_id
      WHERE l.collection_id = ${collectionId}
    ),
    ${membershipCtes(userId)},
    chain AS (
      SELECT s.organization_id, s.id, s.parent_collection_id, s.default_level, 0 AS depth FROM s
      UNION ALL
      SELECT c.organization_id, c.id, c.parent_collection_id, c.default_level, chain.depth + 1
      FROM collections c JOIN chain ON c.organization_id = chain.organization_id AND c.id = chain.parent_collection_id
    ),
    levels AS (SELECT depth, default_level FROM chain),
    grants AS (
      SELECT g.role FROM collection_grants g JOIN chain ON g.organization_id = chain.organization_id AND g.collection_id = chain.id
      WHERE ${grantFilter(userId)}
    )
    SELECT s.*, ${memberColumns}, ${singleItemRank()}
    FROM s JOIN organizations o ON o.id = s.organization_id`.execute(db);
  return result.rows[0];
}
