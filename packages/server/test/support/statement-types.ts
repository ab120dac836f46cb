// What PostgreSQL says of a statement's result without running it: each column's name, type and, for
// a column read as it is from a table, that table and column (the protocol's statement Describe, as
// pg-cursor drives the connection), and the plan (EXPLAIN (GENERIC_PLAN): no values needed), which
// shows the tables read on the nullable side of an outer join.
import type pg from 'pg';

export type ResultField = { name: string; tableID: number; columnID: number; dataTypeID: number };

/** Parses `text` and describes its result (none for a statement without one); executes nothing. */
export function describeStatement(client: pg.Client, text: string): Promise<ResultField[]> {
  return new Promise((resolve, reject) => {
    let fields: ResultField[] = [];
    // A Submittable (pg's Client.query accepts any): parse, describe the statement, sync.
    const describe = {
      submit(connection: { parse(query: { text: string; types: number[] }): void; describe(what: { type: 'S'; name: string }): void; sync(): void }) {
        connection.parse({ text, types: [] });
        connection.describe({ type: 'S', name: '' });
        connection.sync();
      },
      handleRowDescription(message: { fields: ResultField[] }) {
        fields = message.fields.map(({ name, tableID, columnID, dataTypeID }) => ({ name, tableID, columnID, dataTypeID }));
      },
      // pg drops a query at its error (no ReadyForQuery reaches it then).
      handleError: reject,
      handleReadyForQuery() {
        resolve(fields);
      },
      handleDataRow() {},
      handlePortalSuspended() {},
      handleEmptyQuery() {},
      handleCommandComplete() {},
    };
    void client.query(describe as never);
  });
}

export type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Join Type'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
};

export async function explainStatement(client: pg.Client, text: string): Promise<PlanNode> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${text}`);
  return rows[0]!['QUERY PLAN'][0]!.Plan;
}

/** The tables scanned on the nullable side of an outer join (a column read from one may be null). */
export function outerJoinedTables(plan: PlanNode): Set<string> {
  const found = new Set<string>();
  const collect = (node: PlanNode) => {
    if (node['Relation Name']) found.add(node['Relation Name']);
    for (const child of node.Plans ?? []) collect(child);
  };
  const visit = (node: PlanNode) => {
    const type = node['Join Type'];
    for (const child of node.Plans ?? []) {
      const side = child['Parent Relationship'];
      const nullable = type === 'Full' || (type === 'Left' && side === 'Inner') || (type === 'Right' && side === 'Outer');
      if (nullable) collect(child);
      else visit(child);
    }
  };
  visit(plan);
  return found;
}

