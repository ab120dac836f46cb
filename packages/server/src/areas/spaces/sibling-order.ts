// Sort keys of space and collection lists: the user-defined order among siblings (docs/decisions.md, "Collections and spaces").
import type { SortKey } from '../../db/pagination.js';

type Ordered = { position: string; id: string };

/** Within one parent: position, then id. */
export function positionOrder<Row extends Ordered>(alias: string): SortKey<Row>[] {
  return [
    { column: `${alias}.position`, direction: 'asc', value: (row) => row.position },
    { column: `${alias}.id`, direction: 'asc', value: (row) => row.id },
  ];
}

/** Across parents: top level first (`parentKey` ''), then by parent, then position. */
export function siblingOrder<Row extends Ordered & { parentKey: string }>(alias: string): SortKey<Row>[] {
  return [{ column: `${alias}.parentKey`, direction: 'asc', value: (row) => row.parentKey }, ...positionOrder<Row>(alias)];
}
