// Custom field definitions of an organization and the values its spaces carry (issue 17). A value is a
// row keyed by (organization, space, field name): it goes with its space (cascade) and with its
// definition (cascade through the name, which never changes).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE custom_field_definitions (
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      id text NOT NULL,
      name text NOT NULL,
      type text NOT NULL CHECK (type IN ('text', 'number', 'boolean', 'tags', 'select:single', 'select:multi')),
      title text,
      description text,
      placeholder text,
      options text[],
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, name)
    )`.execute(db);
  await sql`CREATE INDEX custom_field_definitions_list_idx ON custom_field_definitions (organization_id, created_at DESC, id DESC)`.execute(db);

  // `value` is the JSON value as the API shows it (checked against the definition when written).
  await sql`
    CREATE TABLE space_custom_field_values (
      organization_id text NOT NULL,
      space_id text NOT NULL,
      field text NOT NULL,
      value jsonb NOT NULL,
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, space_id, field),
      FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organization_id, field) REFERENCES custom_field_definitions (organization_id, name) ON DELETE CASCADE
    )`.execute(db);
  // Deleting a definition (the cascade) and changing its options find the field's values by this index.
  await sql`CREATE INDEX space_custom_field_values_field_idx ON space_custom_field_values (organization_id, field)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE space_custom_field_values`.execute(db);
  await sql`DROP TABLE custom_field_definitions`.execute(db);
}
