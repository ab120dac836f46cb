// Space lists at scale (docs/design/budgets.md: a 100-item page independent of the total count):
// - `parent_key` (the parent collection id, '' at the top level) gives the sibling order a non-null
//   leading key, so a page is an ordered index range scan;
// - `organizations.listing_version` changes whenever what a member may list can change (spaces,
//   collections, grants, memberships, teams), so list counts can be cached until it moves.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['spaces', 'collections']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN parent_key text GENERATED ALWAYS AS (coalesce(parent_collection_id, '')) STORED`.execute(db);
  }
  await sql`DROP INDEX spaces_parent_idx`.execute(db);
  await sql`CREATE INDEX spaces_listing_idx ON spaces (organization_id, parent_key, position, id) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX spaces_parent_idx ON spaces (organization_id, parent_collection_id, position, id) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX collections_listing_idx ON collections (organization_id, parent_key, position, id)`.execute(db);

  await sql`ALTER TABLE organizations ADD COLUMN listing_version bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`
    CREATE FUNCTION cw_bump_listing_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE organizations SET listing_version = listing_version + 1
      WHERE id IN (SELECT DISTINCT organization_id FROM changed_rows);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION cw_bump_listing_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE organizations SET listing_version = listing_version + 1 WHERE id IN (OLD.organization_id, NEW.organization_id);
      RETURN NULL;
    END $$`.execute(db);

  const everyChange = ['space_grants', 'collection_grants', 'organization_members', 'team_members', 'collections'];
  for (const table of [...everyChange, 'spaces']) {
    for (const [event, transition] of [
      ['INSERT', 'NEW'],
      ['DELETE', 'OLD'],
    ] as const) {
      await sql`
        CREATE TRIGGER ${sql.ref(`${table}_listing_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.table(table)}
        REFERENCING ${sql.raw(transition)} TABLE AS changed_rows
        FOR EACH STATEMENT EXECUTE FUNCTION cw_bump_listing_version()`.execute(db);
    }
  }
  for (const table of everyChange) {
    await sql`
      CREATE TRIGGER ${sql.ref(`${table}_listing_update`)} AFTER UPDATE ON ${sql.table(table)}
      REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION cw_bump_listing_version()`.execute(db);
  }
  // Spaces change often (head moves, counters): only the columns that decide visibility bump.
  await sql`
    CREATE TRIGGER spaces_listing_update AFTER UPDATE OF deleted_at, parent_collection_id, visibility, default_level ON spaces
    FOR EACH ROW WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.parent_collection_id IS DISTINCT FROM NEW.parent_collection_id
                       OR OLD.visibility IS DISTINCT FROM NEW.visibility OR OLD.default_level IS DISTINCT FROM NEW.default_level)
    EXECUTE FUNCTION cw_bump_listing_version_row()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['space_grants', 'collection_grants', 'organization_members', 'team_members', 'collections', 'spaces']) {
    for (const event of ['insert', 'delete', 'update']) await sql`DROP TRIGGER IF EXISTS ${sql.ref(`${table}_listing_${event}`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION cw_bump_listing_version()`.execute(db);
  await sql`DROP FUNCTION cw_bump_listing_version_row()`.execute(db);
  await sql`ALTER TABLE organizations DROP COLUMN listing_version`.execute(db);
  await sql`DROP INDEX spaces_listing_idx`.execute(db);
  await sql`DROP INDEX collections_listing_idx`.execute(db);
  for (const table of ['spaces', 'collections']) await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN parent_key`.execute(db);
}
