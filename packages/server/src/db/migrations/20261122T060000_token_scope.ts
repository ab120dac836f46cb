// Credentials never reach beyond what issued them (docs/design/access-model.md, "Tokens"): a token issued through an
// organization's single sign-on carries that organization as its scope, and an account records the
// organization whose identity provider created it (a provider signs in its organization's members, and
// otherwise only accounts it created itself).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_tokens ADD COLUMN organization_id text`.execute(db);
  // A scoped token exists only while its user is a member of its organization: removing the member
  // (or leaving, or deleting the organization) deletes it, whichever code path does it. MATCH SIMPLE:
  // an unscoped token (NULL organization) is not checked.
  await sql`
    ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_membership_fkey FOREIGN KEY (organization_id, user_id)
    REFERENCES organization_members (organization_id, user_id) ON DELETE CASCADE`.execute(db);
  await sql`CREATE INDEX api_tokens_membership_idx ON api_tokens (organization_id, user_id) WHERE organization_id IS NOT NULL`.execute(db);

  await sql`ALTER TABLE users ADD COLUMN created_by_organization_id text REFERENCES organizations (id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX users_created_by_organization_idx ON users (created_by_organization_id) WHERE created_by_organization_id IS NOT NULL`.execute(db);

  // Instances cache a token's scope with it: announce a change of it too.
  await sql`DROP TRIGGER api_tokens_changed ON api_tokens`.execute(db);
  await sql`
    CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at, organization_id ON api_tokens
    FOR EACH ROW EXECUTE FUNCTION cw_notify_token_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER api_tokens_changed ON api_tokens`.execute(db);
  await sql`
    CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at ON api_tokens
    FOR EACH ROW EXECUTE FUNCTION cw_notify_token_change()`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN created_by_organization_id`.execute(db);
  await sql`ALTER TABLE api_tokens DROP COLUMN organization_id`.execute(db);
}
