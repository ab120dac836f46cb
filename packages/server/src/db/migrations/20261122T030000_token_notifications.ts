// Instances cache token lookups (auth/token-cache.ts); a change to a token or its user is announced on
// a channel so every instance drops its copy at once (NOTIFY is delivered at commit).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION cw_notify_token_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('cw_token_changes', 't:' || encode(OLD.token_hash, 'hex'));
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at ON api_tokens
    FOR EACH ROW EXECUTE FUNCTION cw_notify_token_change()`.execute(db);
  await sql`
    CREATE FUNCTION cw_notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('cw_token_changes', 'u:' || OLD.id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER users_changed AFTER UPDATE OF email, display_name, photo_url ON users
    FOR EACH ROW EXECUTE FUNCTION cw_notify_user_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER users_changed ON users`.execute(db);
  await sql`DROP TRIGGER api_tokens_changed ON api_tokens`.execute(db);
  await sql`DROP FUNCTION cw_notify_user_change()`.execute(db);
  await sql`DROP FUNCTION cw_notify_token_change()`.execute(db);
}
