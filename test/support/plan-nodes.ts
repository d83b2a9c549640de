// The nodes of a plan PostgreSQL printed with EXPLAIN (FORMAT JSON), for tests that say which scans
// a statement may take.

/** A plan node, as far as the tests read it */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Filter?: string;
  'Recheck Cond'?: string;
  /** how many times the node ran (EXPLAIN ANALYZE) */
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** The node and every node below it */
export const nodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(nodesOf),
];
