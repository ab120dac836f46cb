// The benchmark's data: one organization with 10,000 spaces (half of them in 20 collections) and
// 1,000 members with a token each. Written in bulk SQL: seeding is not what is measured.
import { sql, type Kysely } from 'kysely';
import { hashToken, newTokenSecret } from '../../packages/server/src/auth/tokens.js';

export const SPACES = 10_000;
export const MEMBERS = 1_000;
const COLLECTIONS = 20;

/** Spaces held by the benchmark's published site (their `urls.published` costs one lookup). */
export const PUBLISHED_SPACES = 1_000;

/** `spaceIds` are in no published site; `publishedSpaceIds` are in one. */
export type Seeded = { organizationId: string; spaceIds: string[]; publishedSpaceIds: string[]; tokens: string[]; collectionIds: string[] };

const pad = (prefix: string, n: number) => `${prefix}${String(n).padStart(20 - prefix.length, '0')}`;

export async function seed(db: Kysely<any>): Promise<Seeded> {
  const organizationId = pad('benchorg', 1);
  await sql`INSERT INTO organizations (id, title) VALUES (${organizationId}, 'Benchmark organization')`.execute(db);
  await sql`
    INSERT INTO users (id, email, display_name)
    SELECT 'benchuser' || lpad(g::text, 11, '0'), 'user' || g || '@bench.test', 'User ' || g FROM generate_series(1, ${MEMBERS}) g`.execute(db);
  // Mostly readers and editors, a few creators and admins: the realistic mix the resolver sees.
  await sql`
    INSERT INTO organization_members (organization_id, user_id, role)
    SELECT ${organizationId}, 'benchuser' || lpad(g::text, 11, '0'),
      CASE WHEN g <= 10 THEN 'admin' WHEN g % 10 = 0 THEN 'create' WHEN g % 3 = 0 THEN 'edit' ELSE 'read' END
    FROM generate_series(1, ${MEMBERS}) g`.execute(db);

  const tokens: string[] = [];
  const rows = [];
  for (let i = 1; i <= MEMBERS; i++) {
    const secret = newTokenSecret();
    tokens.push(secret);
    rows.push({ id: pad('benchtok', i), user_id: pad('benchuser', i), label: 'bench', token_hash: hashToken(secret) });
  }
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await sql`INSERT INTO api_tokens (id, user_id, label, token_hash) VALUES ${sql.join(
      chunk.map((r) => sql`(${r.id}, ${r.user_id}, ${r.label}, ${r.token_hash})`),
    )}`.execute(db);
  }

  await sql`
    INSERT INTO collections (organization_id, id, title, position)
    SELECT ${organizationId}, 'benchcoll' || lpad(g::text, 11, '0'), 'Collection ' || g, g FROM generate_series(1, ${COLLECTIONS}) g`.execute(db);
  await sql`INSERT INTO collection_locators (collection_id, organization_id) SELECT id, organization_id FROM collections`.execute(db);
  await sql`
    INSERT INTO spaces (organization_id, id, title, visibility, parent_collection_id, position, head_revision_id)
    SELECT ${organizationId}, 'benchspace' || lpad(g::text, 10, '0'), 'Space ' || g,
      CASE WHEN g % 2 = 0 THEN 'in-collection' ELSE 'private' END,
      CASE WHEN g % 2 = 0 THEN 'benchcoll' || lpad((g % ${COLLECTIONS} + 1)::text, 11, '0') END,
      g, 'benchrev' || lpad(g::text, 12, '0')
    FROM generate_series(1, ${SPACES}) g`.execute(db);
  await sql`INSERT INTO space_locators (space_id, organization_id) SELECT id, organization_id FROM spaces`.execute(db);
  await sql`
    INSERT INTO revisions (organization_id, id, space_id, type)
    SELECT organization_id, head_revision_id, id, 'edits' FROM spaces`.execute(db);
  // A published site with 10 sections of 100 site spaces each, over the first 1,000 spaces.
  const siteId = pad('benchsite', 1);
  await sql`INSERT INTO sites (organization_id, id, title, published) VALUES (${organizationId}, ${siteId}, 'Benchmark site', true)`.execute(db);
  await sql`
    INSERT INTO site_sections (organization_id, site_id, id, title, path, is_default, position)
    SELECT ${organizationId}, ${siteId}, 'benchsect' || lpad(g::text, 11, '0'), 'Section ' || g, 'section-' || g, g = 1, g FROM generate_series(1, 10) g`.execute(db);
  await sql`
    INSERT INTO site_spaces (organization_id, site_id, id, space_id, section_id, path, is_default, position)
    SELECT ${organizationId}, ${siteId}, 'benchss' || lpad(g::text, 13, '0'), 'benchspace' || lpad(g::text, 10, '0'),
      'benchsect' || lpad(((g - 1) / 100 + 1)::text, 11, '0'), 'space-' || g, (g - 1) % 100 = 0, g
    FROM generate_series(1, ${PUBLISHED_SPACES}) g`.execute(db);
  await sql`UPDATE spaces SET in_published_site = true WHERE id IN (SELECT space_id FROM site_spaces)`.execute(db);
  await sql`ANALYZE`.execute(db);

  return {
    organizationId,
    spaceIds: Array.from({ length: SPACES - PUBLISHED_SPACES }, (_, i) => pad('benchspace', i + 1 + PUBLISHED_SPACES)),
    publishedSpaceIds: Array.from({ length: PUBLISHED_SPACES }, (_, i) => pad('benchspace', i + 1)),
    collectionIds: Array.from({ length: COLLECTIONS }, (_, i) => pad('benchcoll', i + 1)),
    tokens,
  };
}
