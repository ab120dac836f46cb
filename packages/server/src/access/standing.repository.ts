// The rows access decisions start from: an item together with the caller's standing in its
// organization, in one simple query. The rank itself is computed from the caller's viewer (see
// viewer.ts and listing.repository.ts), which is cached per organization listing version.
//
// The access gate's statements stay raw SQL, compiled once per shape (db/query-shapes.ts), and declare
// their columns (db/raw-query.ts): the item's from the generated table types, the standing's from the
// tables they read; packages/server/test/structure/raw-sql-types.test.ts compares every shape with
// what the database answers.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { PREPARED, type Executor } from '../db/database.js';
import { executeShaped, type Bind } from '../db/query-shapes.js';
import { column, rawQuery, value, type RowOf } from '../db/raw-query.js';
import type { CollectionsTable, OrganizationsTable, Role, SpacesTable } from '../db/schema.js';
import { collectionRankExpression, outsiderViewer, rankShape, rankValues, spaceRankExpression, type Viewer } from './listing.repository.js';

/** A space as the database has it (the generated table type: a renamed or retyped column fails `tsc`). */
export type SpaceRow = Selectable<SpacesTable>;

/** A collection as the database has it. */
export type CollectionRow = Selectable<CollectionsTable>;

/** The caller's standing in an organization: what is not part of the cached viewer. */
export type Standing = {
  organizationId: string;
  listingVersion: number;
  organizationSso: boolean;
  /** The member's role (null: a guest); null too for a non-member (see isMember). */
  memberRole: Role | null;
  isMember: boolean;
  memberSso: boolean;
};

/** The standing's columns, read from the organization `o` and the caller's membership `m` (outer-joined). */
const STANDING_COLUMNS = sql`
  o.id AS standing_organization_id, o.listing_version, o.sso AS organization_sso,
  m.role AS member_role, m.user_id IS NOT NULL AS is_member, coalesce(m.sso, false) AS member_sso`;

/** What STANDING_COLUMNS answers. */
const STANDING = {
  standingOrganizationId: column('organizations', 'id'),
  listingVersion: column('organizations', 'listingVersion'),
  organizationSso: column('organizations', 'sso'),
  memberRole: column('organizationMembers', 'role'),
  isMember: value('bool'),
  memberSso: value('bool'),
};

type StandingColumns = RowOf<undefined, typeof STANDING>;

/** The caller's rank on the item (0: not visible), computed by listing.repository.ts's expressions. */
const RANK = { accessRank: value('int4') };

/**
 * The item and the standing of one row. The item keeps the row object itself (copying every property
 * out of a wide row costs more than the query on a hot path); its extra standing columns are never
 * read through the item's type.
 */
function splitStanding<T>(row: T & StandingColumns): { item: T; standing: Standing } {
  return {
    item: row,
    standing: {
      organizationId: row.standingOrganizationId,
      listingVersion: row.listingVersion,
      organizationSso: row.organizationSso,
      memberRole: row.memberRole,
      isMember: row.isMember,
      memberSso: row.memberSso,
    },
  };
}

/** The bind the shapes below are described with (the raw-SQL test parses them; values do not matter). */
const anyValue: Bind = <T>() => null as T;

/** A viewer of each rank shape (rankShape), for the shapes below. */
const shapeViewers = [false, true].map((hasSpaceGrants): Viewer => ({ ...outsiderViewer('', ''), hasSpaceGrants }));

const notDeleted = (includeDeleted: boolean) => (includeDeleted ? sql`` : sql`AND sp.deleted_at IS NULL`);

const spaceWithStanding = rawQuery({
  name: 'findSpaceWithStanding',
  allColumnsOf: 'spaces',
  columns: STANDING,
  statement: (bind: Bind, includeDeleted: boolean) => sql`${PREPARED}
      SELECT sp.*, ${STANDING_COLUMNS}
      FROM space_locators l
      JOIN spaces sp ON sp.organization_id = l.organization_id AND sp.id = l.space_id
      JOIN organizations o ON o.id = sp.organization_id
      LEFT JOIN organization_members m ON m.organization_id = sp.organization_id AND m.user_id = ${bind('userId')}
      WHERE l.space_id = ${bind('spaceId')} ${notDeleted(includeDeleted)}`,
  shapes: [
    [anyValue, false],
    [anyValue, true],
  ],
});

/** One space (by id alone: the organization comes from its locator) with the user's standing. */
export async function findSpaceWithStanding(
  db: Executor,
  spaceId: string,
  userId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<{ item: SpaceRow; standing: Standing } | undefined> {
  const includeDeleted = options.includeDeleted === true;
  const [row] = await executeShaped(db, `findSpaceWithStanding|${includeDeleted}`, (bind) => spaceWithStanding.statement(bind, includeDeleted), { userId, spaceId });
  return row && splitStanding(row);
}

const collectionWithStanding = rawQuery({
  name: 'findCollectionWithStanding',
  allColumnsOf: 'collections',
  columns: STANDING,
  statement: (bind: Bind) => sql`${PREPARED}
      SELECT c.*, ${STANDING_COLUMNS}
      FROM collection_locators l
      JOIN collections c ON c.organization_id = l.organization_id AND c.id = l.collection_id
      JOIN organizations o ON o.id = c.organization_id
      LEFT JOIN organization_members m ON m.organization_id = c.organization_id AND m.user_id = ${bind('userId')}
      WHERE l.collection_id = ${bind('collectionId')}`,
  shapes: [[anyValue]],
});

/** One collection with the user's standing. */
export async function findCollectionWithStanding(
  db: Executor,
  collectionId: string,
  userId: string,
): Promise<{ item: CollectionRow; standing: Standing } | undefined> {
  const [row] = await executeShaped(db, 'findCollectionWithStanding', (bind) => collectionWithStanding.statement(bind), { userId, collectionId });
  return row && splitStanding(row);
}

const standing = rawQuery({
  name: 'findStanding',
  columns: STANDING,
  statement: (bind: Bind) => sql`${PREPARED}
      SELECT ${STANDING_COLUMNS}
      FROM organizations o
      LEFT JOIN organization_members m ON m.organization_id = o.id AND m.user_id = ${bind('userId')}
      WHERE o.id = ${bind('organizationId')}`,
  shapes: [[anyValue]],
});

/** The user's standing in an organization (undefined when the organization does not exist). */
export async function findStanding(db: Executor, organizationId: string, userId: string): Promise<Standing | undefined> {
  const [row] = await executeShaped(db, 'findStanding', (bind) => standing.statement(bind), { userId, organizationId });
  return row && splitStanding(row).standing;
}

/**
 * A row read in the same statement as the space it belongs to — the resource a scope names within a
 * space (a change request) — so that resolving the scope stays one round trip. Supplied by the area
 * that owns the row (its descriptor's `scopeLookups`), shaped like the statement (db/query-shapes.ts).
 */
export type AttachedRow<T> = {
  /** What changes the subquery's text besides its values. */
  shape: string;
  /** A scalar subquery over the space row `sp`: the row as one `jsonb` value, or null when there is none. */
  select: (bind: Bind) => RawBuilder<unknown>;
  /** The values the subquery binds (names of its own: they share the statement's). */
  values: Record<string, unknown>;
  /** The row from that value (keys already camel-cased, as every row's; dates still as JSON text). */
  parse: (json: Record<string, unknown>) => T;
};

/** An attached row of the `jsonb` type every AttachedRow's select answers, for the shapes below. */
const shapeAttached: AttachedRow<unknown> = { shape: '', select: () => sql`NULL::jsonb`, values: {}, parse: (json) => json };

const spaceRanked = rawQuery({
  name: 'findSpaceRanked',
  allColumnsOf: 'spaces',
  columns: { ...STANDING, ...RANK, attachedRow: value('jsonb').orNull().as<Record<string, unknown> | null>() },
  // Without an attached row, attached_row is a constant NULL: one declaration for every shape.
  statement: (bind: Bind, viewer: Viewer, includeDeleted: boolean, attach: AttachedRow<unknown> | undefined) => sql`${PREPARED}
      SELECT sp.*, ${STANDING_COLUMNS}, ${spaceRankExpression(viewer, bind)} AS access_rank, ${attach ? attach.select(bind) : sql`NULL::jsonb`} AS attached_row
      FROM spaces sp
      JOIN organizations o ON o.id = sp.organization_id
      LEFT JOIN organization_members m ON m.organization_id = sp.organization_id AND m.user_id = ${bind('userId')}
      WHERE sp.organization_id = ${bind('organizationId')} AND sp.id = ${bind('spaceId')} ${notDeleted(includeDeleted)}`,
  shapes: shapeViewers.flatMap((viewer) => [false, true].flatMap((includeDeleted) => [undefined, shapeAttached].map((attach): [Bind, Viewer, boolean, AttachedRow<unknown> | undefined] => [anyValue, viewer, includeDeleted, attach]))),
});

/**
 * One space of the viewer's organization with the user's standing and their rank on it, computed by
 * the same expression as the space lists (listing.repository.ts) from `viewer`, whose listing version
 * callers compare with the standing's (the rank holds at that version only). Read by its primary key
 * in the viewer's organization, not through its locator: undefined when the space is not (or no longer)
 * there, which callers settle by its locator (findSpaceWithStanding). With `attach`, the attached row
 * too (null when there is none).
 */
export async function findSpaceRanked<A = never>(
  db: Executor,
  spaceId: string,
  viewer: Viewer,
  options: { includeDeleted?: boolean; attach?: AttachedRow<A> } = {},
): Promise<{ item: SpaceRow; standing: Standing; rank: number; attached?: A | null } | undefined> {
  const { attach } = options;
  const includeDeleted = options.includeDeleted === true;
  const [row] = await executeShaped(
    db,
    `findSpaceRanked|${rankShape(viewer)}|${includeDeleted}|${attach?.shape ?? '-'}`,
    (bind) => spaceRanked.statement(bind, viewer, includeDeleted, attach),
    { ...rankValues(viewer), ...attach?.values, userId: viewer.userId, organizationId: viewer.organizationId, spaceId },
  );
  if (!row) return undefined;
  const found = { ...splitStanding(row), rank: row.accessRank };
  return attach ? { ...found, attached: row.attachedRow ? attach.parse(row.attachedRow) : null } : found;
}

const collectionRanked = rawQuery({
  name: 'findCollectionRanked',
  allColumnsOf: 'collections',
  columns: { ...STANDING, ...RANK },
  statement: (bind: Bind, viewer: Viewer) => sql`${PREPARED}
      SELECT c.*, ${STANDING_COLUMNS}, ${collectionRankExpression(viewer, bind)} AS access_rank
      FROM collections c
      JOIN organizations o ON o.id = c.organization_id
      LEFT JOIN organization_members m ON m.organization_id = c.organization_id AND m.user_id = ${bind('userId')}
      WHERE c.organization_id = ${bind('organizationId')} AND c.id = ${bind('collectionId')}`,
  shapes: shapeViewers.map((viewer): [Bind, Viewer] => [anyValue, viewer]),
});

/** One collection of the viewer's organization with the user's standing and their rank on it (see findSpaceRanked). */
export async function findCollectionRanked(
  db: Executor,
  collectionId: string,
  viewer: Viewer,
): Promise<{ item: CollectionRow; standing: Standing; rank: number } | undefined> {
  const [row] = await executeShaped(db, 'findCollectionRanked', (bind) => collectionRanked.statement(bind, viewer), {
    ...rankValues(viewer),
    userId: viewer.userId,
    organizationId: viewer.organizationId,
    collectionId,
  });
  return row && { ...splitStanding(row), rank: row.accessRank };
}

export const ORGANIZATION_COLUMNS = [
  'organizations.id',
  'organizations.title',
  'organizations.createdAt',
  'organizations.emailDomains',
  'organizations.hostname',
  'organizations.useCase',
  'organizations.communityType',
  'organizations.defaultRole',
  'organizations.defaultContentSiteId',
  'organizations.sso',
  'organizations.ai',
  'organizations.inviteLinks',
  'organizations.customHostname',
  'organizations.logoUrl',
] as const satisfies ReadonlyArray<`organizations.${keyof OrganizationRow}`>;

/**
 * `tsc` fails here when the organizations table has a column the row type does not select.
 * @public (a check for tsc: nothing imports it)
 */
export const everyOrganizationColumnSelected: Exclude<`organizations.${keyof OrganizationRow}`, (typeof ORGANIZATION_COLUMNS)[number]> extends never ? true : never = true;

/** An organization as the database has it, without its listing version (read with the standing). */
export type OrganizationRow = Omit<Selectable<OrganizationsTable>, 'listingVersion'>;

export type MembershipRow = { role: Role | null; sso: boolean };

/** The organization and the user's membership in it (undefined when they are not a member), in one query. */
export async function findOrganizationWithMembership(
  db: Executor,
  organizationId: string,
  userId: string,
): Promise<{ organization: OrganizationRow; membership: MembershipRow | undefined; listingVersion: number } | undefined> {
  const [row] = await executeShaped(
    db,
    'findOrganizationWithMembership',
    (bind) =>
      db
        .selectFrom('organizations')
        .leftJoin('organizationMembers as m', (join) => join.onRef('m.organizationId', '=', 'organizations.id').on('m.userId', '=', bind<string>('userId')))
        .select([...ORGANIZATION_COLUMNS, 'organizations.listingVersion', 'm.userId as memberUserId', 'm.role as memberRole', 'm.sso as memberSso'])
        .where('organizations.id', '=', bind<string>('organizationId'))
        .modifyEnd(PREPARED),
    { userId, organizationId },
  );
  if (!row) return undefined;
  const { memberUserId, memberRole, memberSso, listingVersion, ...organization } = row;
  return {
    organization,
    membership: memberUserId ? { role: memberRole, sso: memberSso ?? false } : undefined,
    listingVersion,
  };
}
