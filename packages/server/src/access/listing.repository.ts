// Lists of spaces at scale. The caller's standing in the organization (membership, teams, and the
// resolved rank of every collection) is loaded once; the page is then an ordered index range scan
// over `spaces` computing each row's rank from it, so a page costs O(page), not O(spaces).
import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import type { Bind, Shaped } from '../db/query-shapes.js';
import { rawQuery, value } from '../db/raw-query.js';
import type { Role } from '../db/schema.js';
import { roleRank } from './roles.js';

// An organization admin holds the highest rank on everything in it.
const ADMIN_RANK = sql.lit(roleRank('admin'));

/**
 * What decides which spaces a user sees in one organization: their standing (read with every request)
 * and their ranks (cached per listing version, see viewer.ts).
 */
export type Viewer = {
  userId: string;
  organizationId: string;
  /** A role, null for a guest, undefined for a non-member. */
  memberRole: Role | null | undefined;
  ssoBlocked: boolean;
  /** Moves when anything that decides visibility changes (see the listing_indexes migration). */
  listingVersion: number;
} & ViewerRanks;

/** The parts of a viewer that only change with the organization's listing version. */
export type ViewerRanks = {
  teamIds: string[];
  /** Per collection: the resolved default level and the best grant (flowed down), as ranks. */
  collectionIds: string[];
  collectionLevels: number[];
  collectionGrants: number[];
  /** The user (or one of their teams) holds a grant on some space of the organization. */
  hasSpaceGrants: boolean;
};

/** A viewer who is no member of the organization: ranks nothing but `public` and `unlisted` spaces. */
export function outsiderViewer(userId: string, organizationId: string): Viewer {
  return {
    userId,
    organizationId,
    memberRole: undefined,
    ssoBlocked: false,
    listingVersion: 0,
    teamIds: [],
    collectionIds: [],
    collectionLevels: [],
    collectionGrants: [],
    hasSpaceGrants: false,
  };
}

/**
 * What makes two viewers see the same spaces: without space grants, their role and collection ranks;
 * with some, themselves. List counts are cached by it, so members alike share one count.
 */
export function visibilityProfile(viewer: Viewer): string {
  if (viewer.hasSpaceGrants) return `user:${viewer.userId}`;
  const profile = `${viewer.memberRole ?? '-'}|${viewer.collectionIds.join(',')}|${viewer.collectionLevels.join(',')}|${viewer.collectionGrants.join(',')}`;
  return `profile:${createHash('sha1').update(profile).digest('base64url')}`;
}

const viewerRanks = rawQuery({
  name: 'loadViewerRanks',
  columns: {
    teamIds: value('text[]'),
    collectionIds: value('text[]'),
    collectionLevels: value('int4[]'),
    collectionGrants: value('int4[]'),
    hasSpaceGrants: value('bool'),
  },
  statement: (organizationId: string, userId: string, memberRole: Role | null) => sql`${PREPARED}
    WITH RECURSIVE
    my_teams AS (SELECT team_id FROM team_members WHERE organization_id = ${organizationId} AND user_id = ${userId}),
    collection_grant_ranks AS (
      SELECT g.collection_id, max(cw_role_rank(g.role)) AS rank FROM collection_grants g
      WHERE g.organization_id = ${organizationId}
        AND ((g.principal_kind = 'user' AND g.principal_id = ${userId}) OR (g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM my_teams)))
      GROUP BY g.collection_id
    ),
    tree AS (
      SELECT c.id,
        CASE WHEN c.default_level = 'inherit' THEN cw_role_rank(${memberRole}::text) ELSE cw_role_rank(c.default_level) END AS level_rank,
        coalesce(cgr.rank, 0) AS grant_rank
      FROM collections c LEFT JOIN collection_grant_ranks cgr ON cgr.collection_id = c.id
      WHERE c.organization_id = ${organizationId} AND c.parent_collection_id IS NULL
      UNION ALL
      SELECT c.id,
        CASE WHEN c.default_level = 'inherit' THEN tree.level_rank ELSE cw_role_rank(c.default_level) END,
        GREATEST(tree.grant_rank, coalesce(cgr.rank, 0))
      FROM collections c JOIN tree ON c.parent_collection_id = tree.id
      LEFT JOIN collection_grant_ranks cgr ON cgr.collection_id = c.id
      WHERE c.organization_id = ${organizationId}
    )
    SELECT
      coalesce((SELECT array_agg(team_id) FROM my_teams), '{}') AS team_ids,
      coalesce((SELECT array_agg(id ORDER BY id) FROM tree), '{}') AS collection_ids,
      coalesce((SELECT array_agg(level_rank ORDER BY id) FROM tree), '{}') AS collection_levels,
      coalesce((SELECT array_agg(grant_rank ORDER BY id) FROM tree), '{}') AS collection_grants,
      EXISTS (
        SELECT 1 FROM space_grants g WHERE g.organization_id = ${organizationId}
          AND ((g.principal_kind = 'user' AND g.principal_id = ${userId}) OR (g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM my_teams)))
      ) AS has_space_grants`,
  shapes: [['', '', null]],
});

/**
 * The user's ranks in the organization in one query: teams, a top-down walk of the collections
 * resolving each one's default level (for a member with `memberRole`) and best grant, and whether they
 * hold any space grant.
 */
export async function loadViewerRanks(db: Executor, organizationId: string, userId: string, memberRole: Role | null): Promise<ViewerRanks> {
  const [row] = await viewerRanks.rows(db, organizationId, userId, memberRole);
  return row!;
}

const arrayLiterals = new WeakMap<readonly unknown[], string>();

/**
 * `values` as a PostgreSQL array literal, built once per array. A viewer's arrays (cached with it) are
 * bound several times in every ranked query: as arrays, pg would escape them again for each parameter
 * on every request; as text they are sent as they are, and `::text[]`/`::int[]` reads them the same.
 */
function arrayLiteral(values: readonly string[] | readonly number[]): string {
  let literal = arrayLiterals.get(values);
  if (literal === undefined) {
    const elements = (values as ReadonlyArray<string | number>).map((value) => (typeof value === 'number' ? String(value) : `"${value.replace(/["\\]/g, '\\$&')}"`));
    arrayLiterals.set(values, (literal = `{${elements.join(',')}}`));
  }
  return literal;
}

/**
 * The values the rank expressions bind, by name: a shaped query (db/query-shapes.ts) binds them to its
 * placeholders, others take them as they are (`valuesOf`).
 */
export function rankValues(viewer: Viewer): Record<string, unknown> {
  return {
    rankRole: viewer.memberRole ?? null,
    rankIsMember: viewer.memberRole !== undefined,
    rankCollectionIds: arrayLiteral(viewer.collectionIds),
    rankCollectionLevels: arrayLiteral(viewer.collectionLevels),
    rankCollectionGrants: arrayLiteral(viewer.collectionGrants),
    rankUserId: viewer.userId,
    rankTeamIds: arrayLiteral(viewer.teamIds),
  };
}

/** What changes the rank expressions' text besides their values: whether the viewer's space grants are looked up. */
export const rankShape = (viewer: Viewer) => (viewer.hasSpaceGrants ? 'space-grants' : 'no-space-grants');

/** A Bind (db/query-shapes.ts) that gives the values themselves. */
export const valuesOf =
  (values: Record<string, unknown>): Bind =>
  <T>(name: string) =>
    values[name] as T;

/**
 * The viewer's rank on the space row `sp` (0: not visible), from the loaded viewer (docs/design/access-model.md, "The effective role").
 *
 * The viewer's space grants are looked up per row only when it holds any (`hasSpaceGrants`): most
 * members hold none, and the lookup was half the database time of a single space read. A grant given
 * or taken moves the listing version (the listing_indexes migration), so a viewer that says "none" is
 * never used for a row a newer grant reaches: single reads compare the version they read with the
 * viewer's (access/items.ts), lists build the viewer from the standing of the same request.
 */
export function spaceRankExpression(viewer: Viewer, bind: Bind = valuesOf(rankValues(viewer))): RawBuilder<number> {
  const role = bind('rankRole');
  const ids = sql`${bind('rankCollectionIds')}::text[]`;
  const levels = sql`${bind('rankCollectionLevels')}::int[]`;
  const slot = sql`array_position(${ids}, sp.parent_collection_id)`;
  const spaceGrant = viewer.hasSpaceGrants
    ? sql`coalesce((SELECT max(cw_role_rank(g.role)) FROM space_grants g
                WHERE g.organization_id = sp.organization_id AND g.space_id = sp.id
                  AND ((g.principal_kind = 'user' AND g.principal_id = ${bind('rankUserId')})
                       OR (g.principal_kind = 'team' AND g.principal_id = ANY(${bind('rankTeamIds')}::text[])))), 0)`
    : sql`0`;
  return sql<number>`GREATEST(
    CASE WHEN ${role}::text IS NULL THEN 0
         WHEN sp.visibility = 'in-collection' AND sp.parent_collection_id IS NOT NULL THEN coalesce((${levels})[${slot}], 0)
         WHEN sp.default_level = 'inherit' THEN coalesce((${levels})[${slot}], cw_role_rank(${role}::text))
         ELSE cw_role_rank(sp.default_level)
    END,
    CASE WHEN ${bind('rankIsMember')} THEN GREATEST(
      coalesce((${bind('rankCollectionGrants')}::int[])[${slot}], 0),
      ${spaceGrant})
    ELSE 0 END,
    CASE WHEN ${role}::text = 'admin' THEN ${ADMIN_RANK} ELSE 0 END,
    CASE WHEN sp.visibility IN ('public', 'unlisted') THEN 1 ELSE 0 END
  )`;
}

/** The viewer's rank on the collection row `c` (0: not visible). */
export function collectionRankExpression(viewer: Viewer, bind: Bind = valuesOf(rankValues(viewer))): RawBuilder<number> {
  const role = bind('rankRole');
  const slot = sql`array_position(${bind('rankCollectionIds')}::text[], c.id)`;
  return sql<number>`GREATEST(
    CASE WHEN ${role}::text IS NULL THEN 0 ELSE coalesce((${bind('rankCollectionLevels')}::int[])[${slot}], 0) END,
    CASE WHEN ${bind('rankIsMember')} THEN coalesce((${bind('rankCollectionGrants')}::int[])[${slot}], 0) ELSE 0 END,
    CASE WHEN ${role}::text = 'admin' THEN ${ADMIN_RANK} ELSE 0 END
  )`;
}

/** The collections the viewer can see (only top-level ones with `topLevelOnly`), each with its `accessRank`. */
export function visibleCollections(db: Executor, viewer: Viewer, options: { topLevelOnly?: boolean } = {}) {
  const topLevelOnly = options.topLevelOnly === true;
  return {
    shape: `visible-collections|${rankShape(viewer)}|${topLevelOnly ? 'top-level' : 'all'}`,
    values: { ...rankValues(viewer), organizationId: viewer.organizationId },
    build: (bind: Bind) => {
      const rank = collectionRankExpression(viewer, bind);
      return db
        .selectFrom('collections as c')
        .selectAll('c')
        .select(rank.as('accessRank'))
        .where('c.organizationId', '=', bind<string>('organizationId'))
        .where(sql<boolean>`${rank} > 0`)
        .$if(topLevelOnly, (qb) => qb.where('c.parentKey', '=', ''))
        .modifyEnd(PREPARED);
    },
  } satisfies Shaped<unknown>;
}

/**
 * The live spaces the viewer can see (optionally only those directly under `parentId`, null for the top
 * level), each with its `accessRank`, ready for keysetPage with the `sp.parentKey/position/id` keys.
 */
export function visibleSpaces(db: Executor, viewer: Viewer, parentId?: string | null) {
  const underParent = parentId !== undefined;
  return {
    shape: `visible-spaces|${rankShape(viewer)}|${underParent ? 'under-parent' : 'all'}`,
    values: { ...rankValues(viewer), organizationId: viewer.organizationId, parentKey: parentId ?? '' },
    // The rank is computed once per row in a lateral subquery, then both selected and filtered on.
    build: (bind: Bind) =>
      db
        .selectFrom('spaces as sp')
        .innerJoin(sql<{ accessRank: number }>`LATERAL (SELECT ${spaceRankExpression(viewer, bind)} AS access_rank)`.as('r'), (join) => join.onTrue())
        .selectAll('sp')
        .select('r.accessRank')
        .where('sp.organizationId', '=', bind<string>('organizationId'))
        .where('sp.deletedAt', 'is', null)
        .where('r.accessRank', '>', 0)
        .$if(underParent, (qb) => qb.where('sp.parentKey', '=', bind<string>('parentKey')))
        .modifyEnd(PREPARED),
  } satisfies Shaped<unknown>;
}

/** visibleSpaces as a query builder, for callers that add to it. */
export function visibleSpacesQuery(db: Executor, viewer: Viewer, parentId?: string | null) {
  const shaped = visibleSpaces(db, viewer, parentId);
  return shaped.build(valuesOf(shaped.values));
}
