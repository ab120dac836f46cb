// A published site's redirects, its readers' feedback and its insights (issue 28, "Feedback,
// insights, redirects"). All three belong to the site and go with it (ON DELETE CASCADE); none
// references a space by foreign key: a redirect to a page of a space that left the site, or feedback
// about it, stays as the site's own record (a redirect whose page is gone answers the site's 404).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Applied before the site's 404: `source` is a path below the site's root in one canonical spelling
  // (areas/sites/redirects.service.ts), looked up by the unique key, which also orders the list.
  await sql`
    CREATE TABLE site_redirects (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      source text NOT NULL CHECK (length(source) BETWEEN 2 AND 512),
      target_kind text NOT NULL CHECK (target_kind IN ('page', 'url')),
      target_space_id text,
      target_page_id text,
      target_url text,
      permanent boolean NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, site_id, source),
      CHECK ((target_kind = 'page') = (target_space_id IS NOT NULL AND target_page_id IS NOT NULL)),
      CHECK ((target_kind = 'url') = (target_url IS NOT NULL)),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);

  // "Was this page helpful?": nothing of the visitor is kept (their address only counts against the
  // feedback limit, in the rate-limit counters).
  await sql`
    CREATE TABLE site_feedback (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      id text NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      revision_id text NOT NULL,
      rating text NOT NULL CHECK (rating IN ('bad', 'ok', 'good')),
      comment text CHECK (length(comment) <= 1000),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX site_feedback_list_idx ON site_feedback (organization_id, site_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX site_feedback_rating_idx ON site_feedback (organization_id, site_id, rating, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX site_feedback_page_idx ON site_feedback (organization_id, site_id, page_id, created_at DESC, id DESC)`.execute(db);

  // Insights, counted per day rather than per visit: an instance adds up its views and searches in
  // memory and writes them in one upsert (areas/sites/insights-recorder.ts), so a row is a day's count.
  await sql`
    CREATE TABLE site_page_views (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      day date NOT NULL,
      space_id text NOT NULL,
      page_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('page', 'markdown', 'mcp')),
      views int8 NOT NULL,
      PRIMARY KEY (organization_id, site_id, day, space_id, page_id, kind),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`
    CREATE TABLE site_searches (
      organization_id text NOT NULL,
      site_id text NOT NULL,
      day date NOT NULL,
      query text NOT NULL,
      searches int8 NOT NULL,
      zero_results int8 NOT NULL,
      PRIMARY KEY (organization_id, site_id, day, query),
      FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['site_searches', 'site_page_views', 'site_feedback', 'site_redirects']) {
    await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  }
}
