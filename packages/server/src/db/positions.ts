// Fractional sibling positions (`numeric`), shared by spaces and collections (areas/spaces/
// positions.repository.ts) and by a site's items (areas/sites/site-positions.ts): an item placed
// beside a reference goes to the midpoint with the reference's neighbour on that side, or one step
// past the reference when it has none (exact, so repeated inserts at one spot never run out of room).
import { sql, type RawBuilder } from 'kysely';

/**
 * The position beside the reference, as text, for a statement with a CTE `ref (position)` holding the
 * reference and a CTE named `siblings` holding the other siblings' `position`.
 */
export function positionBesideReference(siblings: string, side: 'before' | 'after'): RawBuilder<string> {
  const neighbour =
    side === 'before'
      ? sql`(SELECT max(position) FROM ${sql.table(siblings)} WHERE position < ref.position)`
      : sql`(SELECT min(position) FROM ${sql.table(siblings)} WHERE position > ref.position)`;
  const step = side === 'before' ? sql`- 1` : sql`+ 1`;
  return sql<string>`(CASE WHEN ${neighbour} IS NULL THEN ref.position ${step} ELSE (ref.position + ${neighbour}) * 0.5 END)::text`;
}
