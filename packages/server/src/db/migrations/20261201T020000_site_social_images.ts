// The generated social image of each published page (issue 28, "SEO and sharing"): a cache. An image
// is a pure function of what it shows (the site's title and colour, the page's title and description)
// and of the renderer's version, hashed into `input_hash`: it is rendered once per hash and kept here,
// one per page (a new hash replaces the page's older one). It goes with its site (cascade).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE site_social_images (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      input_hash text NOT NULL,
      png bytea NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, site_id, space_id, page_id, input_hash),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  // PNGs are compressed already.
  await sql`ALTER TABLE site_social_images ALTER COLUMN png SET STORAGE EXTERNAL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE site_social_images`.execute(db);
}
