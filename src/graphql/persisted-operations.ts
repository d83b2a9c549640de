// The persisted operations the REST adapter runs (schema/persisted-operations.json, written by
// `npm run codegen`: { "<sha256 hex of the document>": "<document>" }). GraphQL clients may send
// such a hash instead of the document; arbitrary documents stay allowed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PERSISTED_OPERATIONS_FILE = fileURLToPath(new URL('../../schema/persisted-operations.json', import.meta.url));

export const operationHash = (document: string): string => createHash('sha256').update(document).digest('hex');

/** The manifest as a map; empty when codegen has not run yet. Entries whose hash does not match
 *  their document are refused, so a hand-edited manifest cannot alias one operation to another. */
export function loadPersistedOperations(file = PERSISTED_OPERATIONS_FILE): Map<string, string> {
  if (!existsSync(file)) return new Map();
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const operations = new Map<string, string>();
  for (const [hash, document] of Object.entries(manifest)) {
    if (operationHash(document) !== hash) throw new Error(`${file}: entry ${hash} does not match the sha256 of its document`);
    operations.set(hash, document);
  }
  return operations;
}
